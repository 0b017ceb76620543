/**
 * The failover drill's observations as the spec's variables (tla/fencing/failover/FencingReplication.tla),
 * for trace validation (src/seam/tracecheck/): one trace per session, its calls in the order the
 * session made them (one at a time), each as the client reported it — the replies and outcomes, never
 * which patch ran — and the session's keyspace as read at the end.
 *
 * - acquire told "applied" g: the script ran on the primary (`Acquire(p)`, the primary then holds
 *   p's lease at g and the counter at g: what the reply says it wrote), then the client was told
 *   (`WaitAcked`: in the spec, the one action that tells a client "applied"; held[p] = g);
 * - acquire refused "held by o/g": nothing changed (a stutter), the primary's lease is o/g;
 * - acquire with no reply (unknown: a WAIT short of its count, a lost connection): the script may
 *   have run (`Acquire(p)` or nothing), and then timed out (`WaitTimedOut`, or nothing); p was not told;
 * - release told "released": `Release(o)` (the loop's own owner) or, in the name of an earlier owner
 *   it found holding the lease, `Release(o)` or `Expire(o)` (that owner may never have been told);
 *   the primary's lease is free and o no longer fences; "notheld": o stops fencing, the primary's
 *   lease is not o's; unknown: either, or nothing;
 * - a call refused without a reply (nothing executed it: CLUSTERDOWN, MOVED) is no step;
 * - the failover, on the victim's sessions, between the last call answered before the kill and the
 *   first that was not (`Failover`, failovers = 1);
 * - the keyspace read at the end (a stutter: primary = the lease and counter read).
 *
 * Replication is not observed: `Replicate` is silent (it may happen between any two lines). The
 * drill's owners p0, p1, … are the spec's pods; Pods and MaxGen are the drill's own (constants).
 */
import type { ClaimArg, ClaimedAction, ObservedStep, ObservedTrace } from '../../../seam/tracecheck/format.js';
import type { TraceValidation } from '../../../seam/tracecheck/target.js';
import type { CallRecord } from '../cluster-matrix/drills/outcomes.js';
import type { DrillObservation, SessionObservation } from './drill.js';

/** What the drill's code does without a log line, and the domains of the spec's quantified parameters. */
export const FAILOVER_TRACE_VALIDATION: TraceValidation = {
  silent: ['Replicate'],
  domains: { Acquire: ['Pods'], Release: ['Pods'], Expire: ['Pods'], WaitAcked: ['pending'], WaitTimedOut: ['pending'] },
};

const FREE = '[owner |-> None, gen |-> 0]';
const lease = (owner: string, gen: number) => `[owner |-> ${owner}, gen |-> ${gen}]`;
const pendingOf = (p: string) => ({ in: 'pending', such: `fc_arg.pod = ${p}` });
const act = (name: string, ...args: ClaimArg[]): ClaimedAction => ({ name, args });

/** The lines of one call (none for a call nothing executed). `proxy`: a release in the name of an earlier owner. */
function callLines(c: CallRecord, proxy: boolean): ObservedStep[] {
  const p = c.owner;
  const note = `${c.op} by ${p}${c.gen !== undefined ? `/${c.gen}` : ''}: ${c.outcome}${c.reply ? ` ${JSON.stringify(c.reply)}` : ''}${c.failure ? ` (${c.failure})` : ''}`;
  if (c.op === 'acquire') {
    if (c.reply?.kind === 'ok') {
      const g = c.reply.gen;
      return [
        { action: act('Acquire', p), vars: { primary: `[lease |-> ${lease(p, g)}, gen |-> ${g}]` }, note },
        { action: act('WaitAcked', `[pod |-> ${p}, gen |-> ${g}]`), views: { [`held[${p}]`]: String(g) }, note: `${p} told it holds ${g}` },
      ];
    }
    if (c.reply?.kind === 'held') return [{ action: [], stutter: true, views: { 'primary.lease': lease(c.reply.owner, c.reply.gen) }, note }];
    if (c.outcome === 'unknown') {
      return [
        { action: act('Acquire', p), stutter: true, note: `${note}: it may have run` },
        { action: act('WaitTimedOut', pendingOf(p)), stutter: true, views: { [`held[${p}]`]: '0' }, note: `${p} not told` },
      ];
    }
    return [];
  }
  const releases = proxy ? [act('Release', p), act('Expire', p)] : [act('Release', p)];
  if (c.reply?.kind === 'released') return [{ action: releases, views: { 'primary.lease': FREE, [`held[${p}]`]: '0' }, note }];
  if (c.reply?.kind === 'notheld') return [{ action: releases, stutter: true, views: { [`primary.lease # ${lease(p, c.gen ?? 0)}`]: 'TRUE', [`held[${p}]`]: '0' }, note }];
  if (c.outcome === 'unknown') return [{ action: releases, stutter: true, note: `${note}: it may have run` }];
  return [];
}

/**
 * The first call at which the drill's own checks fire (checks.ts: a generation told "applied" not
 * above an earlier one, a released lease seen held again), as the index of its first line: where
 * the drill predicts TLC rejects the session. Null when none fires.
 */
function drillPrediction(calls: readonly CallRecord[], firstLine: readonly number[]): number | null {
  let last = 0;
  const released = new Set<string>();
  for (const [i, c] of calls.entries()) {
    if (c.op === 'acquire' && c.reply?.kind === 'ok') {
      if (c.reply.gen <= last) return firstLine[i]!;
      last = Math.max(last, c.reply.gen);
    }
    if (c.reply?.kind === 'held' && released.has(`${c.reply.owner}:${c.reply.gen}`)) return firstLine[i]!;
    if (c.op === 'release' && c.reply?.kind === 'released') released.add(`${c.owner}:${c.gen}`);
  }
  return null;
}

/** One session as an observed trace. */
function sessionTrace(s: SessionObservation, killAt: number, meta: { id: string; mutant?: string; replay?: string }, constants: Record<string, string>): ObservedTrace {
  const steps: ObservedStep[] = [{ vars: { failovers: '0' }, note: `session ${s.session}${s.victim ? ' (on the victim primary)' : ''}` }];
  const firstLine: number[] = [];
  let failedOver = !s.victim;
  let owner: string | null = null;
  for (const c of s.calls) {
    if (!failedOver && c.endedAt > killAt) {
      steps.push({ action: { name: 'Failover' }, vars: { failovers: '1' }, note: 'the primary killed, its replica took over' });
      failedOver = true;
    }
    if (c.op === 'acquire') owner = c.owner;
    firstLine.push(steps.length);
    steps.push(...callLines(c, c.op === 'release' && c.owner !== owner));
  }
  if (!failedOver) steps.push({ action: { name: 'Failover' }, vars: { failovers: '1' }, note: 'the primary killed, its replica took over' });
  const f = s.final;
  steps.push({ action: [], stutter: true, vars: { primary: `[lease |-> ${f.lease ? lease(f.lease.owner, f.lease.gen) : FREE}, gen |-> ${f.counter}]` }, note: 'the keyspace read at the end' });
  return {
    system: 'failover',
    source: 'drill',
    id: `${meta.id} session ${s.session}`,
    ...(meta.mutant !== undefined && { mutant: meta.mutant }),
    constants,
    predicted: { step: drillPrediction(s.calls, firstLine), by: "the drill's checks (a generation not above an earlier one, a released lease back)" },
    ...(meta.replay !== undefined && { replay: meta.replay }),
    steps,
  };
}

/** Every session of a drill as observed traces: one batch (the same Pods and MaxGen for all). */
export function drillTraces(o: DrillObservation, meta: { id: string; mutant?: string; replay?: string }): ObservedTrace[] {
  const owners = new Set<string>();
  let acquires = 0;
  for (const s of o.sessions) {
    for (const c of s.calls) owners.add(c.owner);
    acquires = Math.max(acquires, s.calls.filter((c) => c.op === 'acquire').length, s.final.counter);
  }
  const pods = [...owners].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
  // Every acquire raises the counter by one at most: it never passes the session's acquires.
  const constants = { Pods: `{${pods.length > 0 ? pods.join(', ') : 'p0'}}`, MaxGen: String(acquires + 1) };
  return o.sessions.map((s) => sessionTrace(s, o.killAt, meta, constants));
}
