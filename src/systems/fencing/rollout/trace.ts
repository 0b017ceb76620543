/**
 * The rehearsal as observed traces of the fencing spec (docs/tracecheck.md), one per session: the
 * spec models one session, and sessions share nothing but the fleet. Every line is a step the
 * server executed (observed-call.ts: the script and a read of the session in one transaction, in
 * the session's step order), mapped to the spec's action:
 *
 * - a pod's acquire that answered `ok g` → `Acquire<phase>(p)`, with `lastIssued = g` from the reply;
 *   a renew that answered `migrated` → `MigrateB(p)`; a release that answered `released old|new`
 *   → `ExpireOld`/`ExpireNew` (the spec's release and expiry are one change); any other answer (a
 *   refused acquire, a renew that only extends the TTL, a lost lease) → a stutter;
 * - a gate step the controller was allowed → that step's action, with the deploy record's target,
 *   mode and backfill flag; the backfill over the pool → `Backfill`.
 *
 * Every line observes the session's four keys as its transaction read them. The spec's pods are the
 * session's lease owners (`<pod>/<lane>`: an owner keeps its name when a stopped pod hands its
 * lease to a pod of the new image, as a tunnel reconnects). Three things happen between lines and
 * are written in as their own lines, each only on evidence:
 * - a lease gone (or replaced) that no line removed, when the server's clock had passed its PTTL
 *   read at the line before → `ExpireOld`/`ExpireNew` (TTL expiry; a pod killed with SIGKILL);
 * - a pod's start (its `start` step on every session, before any call it makes) → its owners'
 *   `UpgradePod`/`DowngradePod` to its image; an owner seen acting in a phase other than its
 *   version → the same (its session handed to a pod of the new image);
 * - before a gate step the spec guards with "every pod at the target" (advance, backfill, the
 *   mode doors): the owners not seen since the roll, caught up to the target — on the gate's own
 *   observation that every live pod reports it and every older ReplicaSet is at zero.
 * A step the server counted and nobody reported (a pod killed between its EXEC and its line) is
 * a line that claims any action of the spec. `monoOk` and `version` are left to the spec.
 */
import type { ClaimedAction, ObservedStep, ObservedTrace } from '../../../seam/tracecheck/format.js';
import type { GateStep } from '../gate/rules.js';
import { decodeCounter, decodeLease } from '../encoding.js';
import { PHASES, type Mode, type Phase } from '../state.js';
import type { KeyspaceSeen } from './observed-call.js';

/** `start`: the pod began, before any call (its owners run its image from here); its owner is `<pod>/*`. */
export type PodOp = 'acquire' | 'renew' | 'release' | 'start';

/** A pod's fencing call, as its pod reported it (pod.ts `step` lines). */
export interface PodStep {
  readonly kind: 'pod';
  /** `<community>:<session>` */
  readonly session: string;
  readonly pod: string;
  readonly phase: Phase;
  readonly owner: string;
  readonly op: PodOp;
  readonly reply: unknown;
  readonly error?: string;
  readonly seen: KeyspaceSeen;
}

/** A controller's step, read on every session at once (a mark: the session read back, no script). */
export type FleetStep =
  | { readonly kind: 'gate'; readonly session: string; readonly step: GateStep; readonly target: Phase; readonly mode: Mode; readonly backfilled: boolean; readonly seen: KeyspaceSeen }
  | { readonly kind: 'backfill'; readonly session: string; readonly seen: KeyspaceSeen };

export type TraceEntry = PodStep | FleetStep;

export interface SessionTraceMeta {
  readonly id: string;
  readonly replay?: string;
}

const rank = (p: Phase) => PHASES.indexOf(p);
/** An owner (`relay-3-0002/reliable`) as a TLA+ model value. */
export const ownerValue = (owner: string) => `o_${owner.replace(/[^A-Za-z0-9_]/g, '_')}`;
const NO_LEASE = '[owner |-> None, gen |-> 0]';
const leaseText = (raw: string | null) => {
  const l = decodeLease(raw);
  return l ? `[owner |-> ${ownerValue(l.owner)}, gen |-> ${l.gen}]` : NO_LEASE;
};
const KEYS = [
  { key: 'old', lease: 'oldLease', ttl: 'oldTtlMs', expire: 'ExpireOld' },
  { key: 'new', lease: 'newLease', ttl: 'newTtlMs', expire: 'ExpireNew' },
] as const;

/** The session's keys as the spec's variables. */
function keyspaceVars(s: KeyspaceSeen): Record<string, string> {
  const fresh = { newLease: leaseText(s.newLease), newGen: String(decodeCounter(s.newGen)) };
  return s.oldUnread ? fresh : { oldLease: leaseText(s.oldLease), oldGen: String(decodeCounter(s.oldGen)), ...fresh };
}

const replyParts = (r: unknown): string[] => (Array.isArray(r) ? r.map(String) : r === undefined ? [] : [String(r)]);

/** The spec's action a pod's call performed, from its reply (null: a stutter). */
export function podClaim(e: PodStep): { claim: ClaimedAction | null; issued?: number; removes?: 'old' | 'new' } {
  const [head, second] = replyParts(e.reply);
  const p = ownerValue(e.owner);
  if (e.error !== undefined) return { claim: null };
  if (e.op === 'acquire' && head === 'ok') return { claim: { name: `Acquire${e.phase}`, args: [p] }, issued: Number(second) };
  if (e.op === 'renew' && head === 'migrated') return { claim: { name: 'MigrateB', args: [p] }, removes: 'old' };
  if (e.op === 'release' && head === 'released' && (second === 'old' || second === 'new')) return { claim: { name: second === 'old' ? 'ExpireOld' : 'ExpireNew' }, removes: second };
  return { claim: null };
}

/** The gate steps whose spec action asks every pod to be at the target first. */
const ALL_AT_TARGET: ReadonlySet<string> = new Set(['AdvanceTarget', 'Backfill', 'EnterCompatible']);

/** The spec's pods (every owner any session saw) and the largest generation: one set of constants, so one TLC run judges every session. */
export function fleetOf(entries: readonly TraceEntry[]): { readonly owners: readonly string[]; readonly maxGen: number } {
  const owners = new Set<string>();
  let maxGen = 1;
  for (const e of entries) {
    if (e.kind === 'pod' && e.op !== 'start') owners.add(e.owner);
    for (const raw of [e.seen.oldLease, e.seen.newLease]) {
      const l = decodeLease(raw);
      if (l) owners.add(l.owner);
    }
    maxGen = Math.max(maxGen, decodeCounter(e.seen.oldGen), decodeCounter(e.seen.newGen));
  }
  return { owners: [...owners].sort(), maxGen };
}

/** One session's entries (any order) as an observed trace of the fencing spec; `fleet`: the constants (default: the session's own). */
export function sessionTrace(entries: readonly TraceEntry[], meta: SessionTraceMeta, fleet = fleetOf(entries)): ObservedTrace {
  const sorted = [...entries].sort((a, b) => a.seen.seq - b.seen.seq);
  const owners = fleet.owners;
  const version = new Map<string, Phase>([...owners].map((o) => [o, 'O']));
  let target: Phase = 'O';
  const lines: ObservedStep[] = [{ note: 'Init: the fleet at O, the session never touched' }];
  let prev: KeyspaceSeen | null = null;
  const moveTo = (owner: string, phase: Phase, why: string) => {
    const v = version.get(owner)!;
    if (v === phase) return;
    lines.push({ action: { name: rank(phase) > rank(v) ? 'UpgradePod' : 'DowngradePod', args: [ownerValue(owner)] }, note: `${owner}: ${v} → ${phase} (${why})` });
    version.set(owner, phase);
  };
  let repeats = 0;
  /** A step that changed nothing the spec tracks; a run of them with one observation is one line (renews dominate a run). */
  const stutter = (vars: Record<string, string>, note: string) => {
    const last = lines.at(-1)!;
    if (Array.isArray(last.action) && last.action.length === 0 && last.stutter && JSON.stringify(last.vars) === JSON.stringify(vars)) {
      repeats++;
      lines[lines.length - 1] = { ...last, note: `${last.note!.replace(/ \(and \d+ more like it\)$/, '')} (and ${repeats} more like it)` };
      return;
    }
    repeats = 0;
    lines.push({ action: [], stutter: true, vars, note });
  };
  for (const e of sorted) {
    if (prev && e.seen.seq !== prev.seq + 1) lines.push({ stutter: true, note: `${e.seen.seq - prev.seq - 1} step(s) the server counted and no one reported` });
    const own = e.kind === 'pod' ? podClaim(e) : { claim: null };
    // TTL expiry between the line before and this one, only where the server's clock allows it.
    if (prev) {
      for (const k of KEYS) {
        const was = prev[k.lease];
        const elapsed = e.seen.atMs - prev.atMs;
        if (k.key === 'old' && (prev.oldUnread || e.seen.oldUnread)) continue; // not read after the door
        if (was !== null && e.seen[k.lease] !== was && own.removes !== k.key && elapsed >= prev[k.ttl] - 1) {
          lines.push({ action: { name: k.expire }, note: `${k.key} lease ${was} expired: PTTL ${prev[k.ttl]} ms at step ${prev.seq}, ${Math.round(elapsed)} ms before step ${e.seen.seq}` });
        }
      }
    }
    const vars: Record<string, string> = keyspaceVars(e.seen);
    if (e.kind === 'pod' && e.op === 'start') {
      for (const o of owners) if (o.startsWith(`${e.pod}/`)) moveTo(o, e.phase, `${e.pod} started on the ${e.phase} image`);
      stutter(vars, `${e.pod} (${e.phase}) started (step ${e.seen.seq})`);
    } else if (e.kind === 'pod') {
      moveTo(e.owner, e.phase, `seen running ${e.phase} on ${e.pod}`);
      if (own.issued !== undefined) vars.lastIssued = String(own.issued);
      const note = `${e.pod} ${e.owner} ${e.op} → ${e.error ?? JSON.stringify(e.reply)} (step ${e.seen.seq})`;
      if (own.claim) lines.push({ action: own.claim, vars, note });
      else stutter(vars, note);
    } else if (e.kind === 'backfill') {
      for (const o of owners) moveTo(o, target, `the gate saw every live pod at ${target}`);
      lines.push({ action: { name: 'Backfill' }, vars, note: `the operator's backfill (step ${e.seen.seq})` });
    } else if (e.step === 'Backfill') {
      // The gate's yes: the record says the backfill may run; the spec's Backfill is the merge itself (the backfill line).
      stutter(vars, `the gate allowed the backfill (step ${e.seen.seq})`);
    } else {
      if (ALL_AT_TARGET.has(e.step)) for (const o of owners) moveTo(o, target, `the gate saw every live pod at ${target}`);
      lines.push({
        action: { name: e.step },
        vars: { ...vars, target: `"${e.target}"`, mode: `"${e.mode}"`, backfilled: e.backfilled ? 'TRUE' : 'FALSE' },
        note: `the gate allowed ${e.step}: target ${e.target}, mode ${e.mode} (step ${e.seen.seq})`,
      });
      target = e.target;
    }
    prev = e.seen;
  }
  return {
    system: 'fencing',
    source: 'rollout',
    id: meta.id,
    constants: { Pods: `{${owners.map(ownerValue).join(', ') || 'o_nobody'}}`, MaxGen: String(fleet.maxGen) },
    predicted: { step: null, by: 'the rehearsal: a run of the real scripts behind the real gate' },
    ...(meta.replay !== undefined && { replay: meta.replay }),
    steps: lines,
  };
}

/** The trace of every session that saw a step, in session order. */
export function rolloutTraces(entries: readonly TraceEntry[], meta: { readonly id: string; readonly replay?: string }): ObservedTrace[] {
  const fleet = fleetOf(entries);
  const bySession = new Map<string, TraceEntry[]>();
  for (const e of entries) bySession.set(e.session, [...(bySession.get(e.session) ?? []), e]);
  return [...bySession.entries()]
    .filter(([, es]) => es.some((e) => e.kind === 'pod' && e.op !== 'start'))
    .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
    .map(([s, es]) => sessionTrace(es, { id: `${meta.id} session ${s}`, ...(meta.replay !== undefined && { replay: meta.replay }) }, fleet));
}
