/**
 * The tour's alphabet: everything a pod, the deploy pipeline or the clock can attempt in a state,
 * enabled or not, and what the model says each attempt does. Pods run their own version's script,
 * so an acquire is `Acquire<version>(p)`; renew and release carry the generation the pod remembers
 * (its own lease, a lease it lost, another pod's generation), because the scripts' owner+generation
 * guard is what those attempts exercise. ../shared/design/fencing-scripts.md, the operation table.
 */
import { nextState, eventLabel, type FencingEvent } from '../../../../models/fencing/index.js';
import { GATE_STEPS, type GateStep } from '../gate/rules.js';
import { NONE, type FencingBounds, type FencingState, type Lease, type Phase, type Pod } from '../state.js';
import type { DecisionView } from '../../../seam/tour/system.js';

export type Attempt =
  | { readonly kind: 'acquire'; readonly p: Pod }
  | { readonly kind: 'renew'; readonly p: Pod; readonly gen: number }
  | { readonly kind: 'release'; readonly p: Pod; readonly gen: number }
  | { readonly kind: 'upgrade'; readonly p: Pod }
  | { readonly kind: 'downgrade'; readonly p: Pod }
  | { readonly kind: 'expire'; readonly which: 'old' | 'new' }
  | { readonly kind: 'gate'; readonly step: GateStep };

export type AttemptKind = Attempt['kind'];
export const ATTEMPT_KINDS: readonly AttemptKind[] = ['acquire', 'renew', 'release', 'upgrade', 'downgrade', 'expire', 'gate'];

/**
 * What an attempt does: a model transition (with the action instance), nothing at all (refused,
 * the keyspace and records unchanged), or a renewal (the named lease key's TTL is reset, nothing
 * else changes: the model stutters).
 */
export type Decision =
  | { readonly kind: 'transition'; readonly event: FencingEvent }
  | { readonly kind: 'refused' }
  | { readonly kind: 'renewed'; readonly where: 'old' | 'new' }
  | { readonly kind: 'error'; readonly message: string };

export interface Prediction {
  readonly decision: Decision;
  readonly next: FencingState;
}

/** `acquire(p1)`, `renew(p2@3)`, `expire(old)`, `AdvanceTarget`: one attempt, as reports print it. */
export function attemptLabel(a: Attempt): string {
  switch (a.kind) {
    case 'renew':
    case 'release':
      return `${a.kind}(${a.p}@${a.gen})`;
    case 'expire':
      return `expire(${a.which})`;
    case 'gate':
      return a.step;
    default:
      return `${a.kind}(${a.p})`;
  }
}

/** `transition AcquireB(p1)`, `refused`, `renewed new`: a decision, as the graph labels its edges. */
export function decisionLabel(d: Decision): string {
  switch (d.kind) {
    case 'transition':
      return `transition ${eventLabel(d.event)}`;
    case 'renewed':
      return `renewed ${d.where}`;
    case 'error':
      return `error ${d.message}`;
    default:
      return 'refused';
  }
}

/** How the tour engine counts and compares a decision: a renewal is accepted and changes no model variable. */
export function decisionView(a: Attempt, d: Decision): DecisionView {
  if (d.kind === 'transition') {
    const instance = eventLabel(d.event);
    return { label: `transition ${instance}`, kind: 'transition', instance, row: d.event.type };
  }
  const row = a.kind === 'gate' ? a.step : a.kind;
  if (d.kind === 'renewed') return { label: `renewed ${d.where}`, kind: 'unchanged', row };
  if (d.kind === 'error') return { label: `error ${d.message}`, kind: 'error', row };
  return { label: 'refused', kind: 'refused', row };
}

const live = (l: Lease): boolean => l.owner !== NONE;
const is = (l: Lease, p: Pod, gen: number): boolean => l.owner === p && l.gen === gen;

/**
 * The generations pod p may remember in s: every live lease's generation (its own when it holds it,
 * another pod's otherwise), the one before it when p is that lease's owner (a lease it lost, then
 * won again under a newer generation), and the last issued one (a lease that expired under it).
 */
export function memoriesOf(s: FencingState, p: Pod): number[] {
  const out = new Set<number>();
  for (const l of [s.oldLease, s.newLease]) {
    if (!live(l)) continue;
    out.add(l.gen);
    if (l.owner === p) out.add(l.gen > 1 ? l.gen - 1 : l.gen + 1);
  }
  if (s.lastIssued >= 1) out.add(s.lastIssued);
  return [...out].sort((a, b) => a - b);
}

/** Every attempt in s, in a fixed order (the tour's order, so its verdicts are the same on every run). */
export function attemptsIn(s: FencingState, bounds: FencingBounds): Attempt[] {
  const out: Attempt[] = [];
  for (const p of bounds.pods) {
    out.push({ kind: 'acquire', p });
    for (const gen of memoriesOf(s, p)) out.push({ kind: 'renew', p, gen }, { kind: 'release', p, gen });
    out.push({ kind: 'upgrade', p }, { kind: 'downgrade', p });
  }
  out.push({ kind: 'expire', which: 'old' }, { kind: 'expire', which: 'new' });
  for (const step of GATE_STEPS) out.push({ kind: 'gate', step });
  return out;
}

/** Which lease a renew/release by a pod of version v remembering (p, gen) reaches, per the table's key rule. */
export function reachedLease(v: Phase, p: Pod, gen: number, s: FencingState): 'old' | 'new' | null {
  if ((v === 'B' || v === 'C') && is(s.newLease, p, gen)) return 'new';
  if (v !== 'C' && is(s.oldLease, p, gen)) return 'old';
  return null;
}

function byModel(s: FencingState, ev: FencingEvent, b: FencingBounds): Prediction {
  const next = nextState(s, ev, b);
  return next ? { decision: { kind: 'transition', event: ev }, next } : { decision: { kind: 'refused' }, next: s };
}

const REFUSED = (s: FencingState): Prediction => ({ decision: { kind: 'refused' }, next: s });

/** What the model says the attempt does in s. */
export function predict(s: FencingState, a: Attempt, b: FencingBounds): Prediction {
  switch (a.kind) {
    case 'acquire': {
      const v = s.version[a.p]!;
      return byModel(s, { type: `Acquire${v}`, p: a.p }, b);
    }
    case 'renew': {
      const v = s.version[a.p]!;
      // B's renewer first looks for its lease on the new key, then migrates it from the old one.
      if (v === 'B' && is(s.oldLease, a.p, a.gen) && !is(s.newLease, a.p, a.gen)) return byModel(s, { type: 'MigrateB', p: a.p }, b);
      const where = reachedLease(v, a.p, a.gen, s);
      return where ? { decision: { kind: 'renewed', where }, next: s } : REFUSED(s);
    }
    case 'release': {
      const where = reachedLease(s.version[a.p]!, a.p, a.gen, s);
      return where ? byModel(s, { type: where === 'old' ? 'ExpireOld' : 'ExpireNew' }, b) : REFUSED(s);
    }
    case 'upgrade':
      return byModel(s, { type: 'UpgradePod', p: a.p }, b);
    case 'downgrade':
      return byModel(s, { type: 'DowngradePod', p: a.p }, b);
    case 'expire':
      return byModel(s, { type: a.which === 'old' ? 'ExpireOld' : 'ExpireNew' }, b);
    case 'gate':
      return byModel(s, { type: a.step }, b);
  }
}
