/**
 * The pause snapshot's observations as the spec's variables (tla/pause/PauseSnapshot.tla), for trace
 * validation (src/seam/tracecheck/). After each step of a walk the driver looks at the real system
 * (drive/observe.ts) and keeps its own record of what it did; a trace line holds:
 *
 * - snap, ready: each replica's own status() (its snapshot, or None before the initial load);
 * - subscribed: each replica's reported start phases (the subscribe phase ran), and, as a view, the
 *   number of connections Valkey counts on the channel (PUBSUB NUMSUB);
 * - chan: per replica, the messages its subscriber really received and the walk has not yet
 *   delivered or dropped (messages still on the wire are not observable: the walk waits for every
 *   published one to arrive before it looks);
 * - Version and Paused (views: the spec's own operators): Valkey's keys, one MGET;
 * - calls, and the calls begun and not yet written (a view: their caller and value; the version the
 *   spec announces is a model artefact): the driver's record of the calls it made;
 * - Answer(r) (a view) for a ready replica whose hot read served a value ("unavailable" is not
 *   logged: real time also ages a snapshot between Ticks, so an early fail-closed is no evidence);
 * - every snapshot past the age bound (a view), when real time says so of all of them (Tick is silent:
 *   real time passes without the driver's Tick).
 *
 * history, pending, dropped, age, applied and synced are left to the spec. A step claims what the
 * real system did: the start phase the replica itself ran (not the one the twin asked for), the
 * message the subscriber really received, the call the driver made.
 */
import type { PauseModelEvent } from '../../../models/pause/index.js';
import type { ClaimedAction, ObservedStep } from '../../seam/tracecheck/format.js';
import type { PauseState } from './keys.js';
import type { Replica } from './model-state.js';
import type { StartPhase } from './replica.js';
import type { RealView } from './drive/observe.js';

const bool = (b: boolean) => (b ? 'TRUE' : 'FALSE');
const event = (e: PauseState) => `[paused |-> ${bool(e.paused)}, version |-> ${e.version}]`;
const perReplica = (rs: readonly Replica[], f: (r: Replica) => string) => `(${rs.map((r) => `${r} :> ${f(r)}`).join(' @@ ')})`;
const setOf = (items: readonly string[]) => `{${[...new Set(items)].sort().join(', ')}}`;

/** A call the driver began and has not yet written (BeginSetPaused without its Commit or Fail). */
export interface BegunCall {
  readonly by: Replica;
  readonly paused: boolean;
}

/** What the driver knows of its own doing, beside the real view. */
export interface DriverRecord {
  /** SetPaused calls begun so far. */
  readonly calls: number;
  readonly begun: readonly BegunCall[];
  /** Per replica, the start phases it reported running. */
  readonly phases: Readonly<Record<Replica, readonly StartPhase[]>>;
  /** Per replica, the messages received and not yet delivered or dropped. */
  readonly held: Readonly<Record<Replica, readonly PauseState[]>>;
}

export const PENDING_VIEW = '{[by |-> fc_p.by, paused |-> fc_p.paused] : fc_p \\in pending}';
/** Every snapshot is past the age bound: logged when real time (the driver's clock) says so of every replica that holds one. */
export const ALL_STALE_VIEW = '\\A fc_r \\in Replicas : snap[fc_r] # None => age[fc_r] > MaxAge';
export const SUBSCRIPTIONS_VIEW = 'Cardinality({fc_r \\in Replicas : subscribed[fc_r]})';

/**
 * One line's observations: the real view and the driver's record. `allStale`: by the driver's clock
 * every replica that holds a snapshot last synced more than the age bound ago (plus the checkers'
 * slack). The spec's time is Ticks, each ageing every snapshot at once, so real time is logged only
 * when it ages all of them: a Tick the driver did not make (Tick is silent), never one replica alone.
 */
export function pauseObservation(replicas: readonly Replica[], view: RealView, rec: DriverRecord, allStale = false): Pick<ObservedStep, 'vars' | 'views'> {
  const status = (r: Replica) => view.replicas[r]!.status;
  const views: Record<string, string> = {
    Version: String(view.valkey.version),
    Paused: bool(view.valkey.paused),
    [PENDING_VIEW]: setOf(rec.begun.map((c) => `[by |-> ${c.by}, paused |-> ${bool(c.paused)}]`)),
    [SUBSCRIPTIONS_VIEW]: String(view.subscriptions),
    ...(allStale && { [ALL_STALE_VIEW]: 'TRUE' }),
  };
  for (const r of replicas) {
    const x = view.replicas[r]!;
    if (x.status.ready && x.status.version !== null && x.answer !== 'unavailable') views[`Answer(${r})`] = `[served |-> TRUE, paused |-> ${bool(x.answer === 'paused')}]`;
  }
  return {
    vars: {
      calls: String(rec.calls),
      snap: perReplica(replicas, (r) => (status(r).version === null ? 'None' : event({ paused: status(r).paused!, version: status(r).version! }))),
      ready: perReplica(replicas, (r) => bool(status(r).ready)),
      subscribed: perReplica(replicas, (r) => bool((rec.phases[r] ?? []).includes('subscribe'))),
      chan: perReplica(replicas, (r) => setOf((rec.held[r] ?? []).map(event))),
    },
    views,
  };
}

/** What really happened in one step, as execute() reports it. */
export interface RealStepFacts {
  /** Subscribe / Load / Ready: the start phase the replica ran (null: its start was over). */
  readonly ran?: StartPhase | null;
  /** Deliver / Drop: the message the subscriber received and the walk took (null: it never arrived). */
  readonly taken?: PauseState | null;
}

const PHASE_ACTION: Readonly<Record<StartPhase, string>> = { subscribe: 'Subscribe', load: 'Load', ready: 'Ready' };

/** The call of `pending` the driver made: by whom, with which value (the spec's announced version is not the real system's). */
const callArg = (c: { by: Replica; paused: boolean }) => ({ in: 'pending', such: `fc_arg.by = ${c.by} /\\ fc_arg.paused = ${bool(c.paused)}` });

/** The step's claim: the action instance the real system performed, or a stutter when nothing happened. */
export function pauseClaim(ev: PauseModelEvent, facts: RealStepFacts): Pick<ObservedStep, 'action' | 'stutter'> {
  const stutter = { action: [] as ClaimedAction[], stutter: true };
  switch (ev.type) {
    case 'Subscribe':
    case 'Load':
    case 'Ready':
      return facts.ran ? { action: { name: PHASE_ACTION[facts.ran], args: [ev.r] } } : stutter;
    case 'BeginSetPaused':
      return { action: { name: 'BeginSetPaused', args: [ev.r, bool(ev.p)] } };
    case 'CommitSetPaused':
    case 'FailSetPaused':
      return { action: { name: ev.type, args: [callArg(ev.c)] } };
    case 'Deliver':
    case 'Drop':
      return facts.taken ? { action: { name: ev.type, args: [ev.r, event(facts.taken)] } } : stutter;
    case 'Reconcile':
      return { action: { name: 'Reconcile', args: [ev.r] } };
    case 'Tick':
      // Time passed: the spec's Tick, or nothing it tracks when every snapshot is already past the bound.
      return { action: { name: 'Tick' }, stutter: true };
    case 'Read':
      return stutter;
  }
}

/** Real time passes without a log line: the spec's Tick may happen between any two lines. */
export const PAUSE_TRACE_VALIDATION = { silent: ['Tick'] } as const;
