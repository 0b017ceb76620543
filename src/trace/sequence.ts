/**
 * A trace as a sequence diagram, independent of how it is drawn: lifelines for the deploy pipeline,
 * each pod, and the two keyspaces; one message per step; a note where an invariant breaks.
 * `mermaid.ts` writes it as Mermaid text, `svg.ts` draws it as inline SVG (no renderer needed).
 */
import type { FencingState } from '../systems/fencing/state.js';
import type { FencingTrace, TraceStep } from '../core/trace-format.js';
import { refusal, refusedLabel, stepPod, stepTable } from './steps.js';

export interface Participant {
  readonly id: string;
  readonly label: string;
}

export type SequenceItem =
  | { readonly kind: 'message'; readonly step: number; readonly from: string; readonly to: string; readonly label: string; readonly refused?: true }
  | { readonly kind: 'note'; readonly step: number; readonly over: readonly [string, string]; readonly text: string; readonly alarm: boolean };

export interface SequenceDiagram {
  readonly title: string;
  readonly participants: readonly Participant[];
  readonly items: readonly SequenceItem[];
}

export const DEPLOY = 'deploy';
export const OLD = 'old';
export const NEW = 'new';

const lease = (l: FencingState['oldLease']) => (l.owner === 'None' ? 'free' : `${l.owner}/${l.gen}`);

export interface DiagramOptions {
  /** Draw refused attempts as refused (the reports); the plain drawing shows every step alike. */
  readonly refusals?: boolean;
}

export function sequenceDiagram(trace: FencingTrace, opts: DiagramOptions = {}): SequenceDiagram {
  const table = stepTable(trace);
  const pods = table.columns.filter((c) => /^p\d+$/.test(c));
  const participants: Participant[] = [
    { id: DEPLOY, label: 'deploy / gate' },
    ...pods.map((p) => ({ id: p, label: p })),
    { id: OLD, label: 'old keyspace' },
    { id: NEW, label: 'new keyspace' },
  ];
  const items: SequenceItem[] = [];
  trace.steps.forEach((step, i) => {
    const row = table.rows[i]!;
    if (i === 0) {
      items.push({ kind: 'note', step: 0, over: [DEPLOY, NEW], text: `${step.action}: target ${step.state.target}, mode ${step.state.mode}`, alarm: false });
    } else {
      const m = message(step, trace.steps[i - 1]!.state, row.changed, i);
      // A refused attempt moved nothing: drawn as refused, never as a step.
      items.push(opts.refusals && m.kind === 'message' && refusal(step) !== null ? { ...m, label: refusedLabel(step), refused: true } : m);
    }
    if (row.newlyBroken.length > 0) {
      const what = row.newlyBroken.map((inv) => brokenWhy(inv, step.state, i > 0 ? trace.steps[i - 1]!.state : step.state)).join('; ');
      items.push({ kind: 'note', step: i, over: [OLD, NEW], text: `✗ ${row.newlyBroken.join(', ')}: ${what}`, alarm: true });
    }
  });
  const title = `${trace.source} trace${trace.mutant ? ` under ${trace.mutant}` : ''}${trace.violated ? ` violating ${trace.violated}` : ''}`;
  return { title, participants, items };
}

/** What the state shows that breaks the invariant, in the spec's terms. */
function brokenWhy(inv: string, s: FencingState, before: FencingState): string {
  switch (inv) {
    case 'Inv_SingleAuthority':
      return `two live leases: old ${lease(s.oldLease)}, new ${lease(s.newLease)}`;
    case 'Inv_Monotonic':
      return `generation ${s.lastIssued} issued after ${before.lastIssued}`;
    case 'Inv_SlotRulesSafe': {
      const notC = Object.entries(s.version).filter(([, v]) => v !== 'C').map(([p, v]) => `${p} on ${v}`);
      const why = [...notC, ...(s.backfilled ? [] : ['no backfill']), ...(s.oldLease.owner === 'None' ? [] : [`old lease ${lease(s.oldLease)}`])];
      return `mode ${s.mode} with ${why.join(', ') || 'the fleet not ready'}`;
    }
    case 'Inv_LeaseGenBounded':
      return `lease generation above its counter (old ${lease(s.oldLease)} ≤ ${s.oldGen}?, new ${lease(s.newLease)} ≤ ${Math.max(s.oldGen, s.newGen)}?)`;
    default:
      return 'the state breaks it';
  }
}

/** Which lifeline sends and which receives a step, chosen from the action and what it changed. */
function message(step: TraceStep, before: FencingState, changed: ReadonlySet<string>, i: number): SequenceItem {
  const s = step.state;
  const pod = stepPod(step);
  const a = step.action;
  const keyspace = changed.has('newLease') || changed.has('newGen') ? NEW : changed.has('oldLease') || changed.has('oldGen') ? OLD : null;
  if (/^Acquire[OABC]$/.test(a) && pod) {
    const to = keyspace ?? (a === 'AcquireB' || a === 'AcquireC' ? NEW : OLD);
    const l = to === NEW ? s.newLease : s.oldLease;
    return { kind: 'message', step: i, from: pod, to, label: keyspace ? `${a} → lease ${l.owner}/${l.gen}` : `${a} (no change)` };
  }
  if (a === 'MigrateB' && pod) return { kind: 'message', step: i, from: pod, to: NEW, label: `MigrateB old→new gen ${s.newLease.gen}` };
  if (a === 'ExpireOld') return { kind: 'message', step: i, from: OLD, to: OLD, label: `ExpireOld (${lease(before.oldLease)} gone)` };
  if (a === 'ExpireNew') return { kind: 'message', step: i, from: NEW, to: NEW, label: `ExpireNew (${lease(before.newLease)} gone)` };
  if ((a === 'UpgradePod' || a === 'DowngradePod') && pod)
    return { kind: 'message', step: i, from: DEPLOY, to: pod, label: `${a} ${before.version[pod] ?? '?'}→${s.version[pod] ?? '?'}` };
  if (a === 'AdvanceTarget' || a === 'RollbackPhase') return { kind: 'message', step: i, from: DEPLOY, to: DEPLOY, label: `${a} target ${before.target}→${s.target}` };
  if (a === 'Backfill') return { kind: 'message', step: i, from: DEPLOY, to: NEW, label: `Backfill newGen=${s.newGen}` };
  if (a === 'ReverseMerge') return { kind: 'message', step: i, from: DEPLOY, to: OLD, label: `ReverseMerge oldGen=${s.oldGen}` };
  if (a === 'EnterCompatible' || a === 'RevertDisabled' || a === 'Enable')
    return { kind: 'message', step: i, from: DEPLOY, to: DEPLOY, label: `${a} mode ${before.mode}→${s.mode}` };
  // An action this renderer does not know: draw it from its actor to what it changed.
  const from = pod || DEPLOY;
  const to = keyspace ?? from;
  const what = [...changed].map((c) => `${c}=${stateValue(s, c)}`).join(' ');
  return { kind: 'message', step: i, from, to, label: what ? `${a} ${what}` : a };
}

function stateValue(s: FencingState, column: string): string {
  if (/^p\d+$/.test(column)) return s.version[column as `p${number}`] ?? '?';
  const v = (s as unknown as Record<string, unknown>)[column];
  if (typeof v === 'object' && v !== null && 'owner' in v) {
    const l = v as unknown as FencingState['oldLease'];
    return `${l.owner}/${l.gen}`;
  }
  return String(v);
}
