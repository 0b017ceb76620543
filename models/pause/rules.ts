/**
 * PauseSnapshot.tla's guards and effects as named pure functions over the spec's variables. The
 * machine (machine.ts) refers to them by name only, so a mutant replaces exactly one name with
 * `machine.provide()`. The eight mutation points keep the spec's names (Deliver_VersionCheck, ...);
 * each returns the spec's `Kept(name)` branch, and a mutant returns the other one.
 */
import {
  normalisedCalls,
  normalisedEvents,
  normalisedVersions,
  pausedNow,
  sameCall,
  sameEvent,
  version,
  type PauseBounds,
  type PauseEvent,
  type PauseModelState,
  type PendingCall,
  type Replica,
} from '../../src/systems/pause/model-state.js';
import type { PauseModelEvent } from './events.js';

export interface PauseEnv {
  readonly bounds: PauseBounds;
}

export type PauseGuard = (s: PauseModelState, ev: PauseModelEvent, env: PauseEnv) => boolean;
export type PauseEffect = (s: PauseModelState, ev: PauseModelEvent, env: PauseEnv) => PauseModelState;

/** The replica / call / event parameter of an event; a rule given the wrong event is a wiring bug. */
export function replicaOf(ev: PauseModelEvent): Replica {
  if (!('r' in ev)) throw new TypeError(`${ev.type} carries no replica`);
  return ev.r;
}
export function callOf(ev: PauseModelEvent): PendingCall {
  if (!('c' in ev)) throw new TypeError(`${ev.type} carries no call`);
  return ev.c;
}
export function eventOf(ev: PauseModelEvent): PauseEvent {
  if (!('e' in ev)) throw new TypeError(`${ev.type} carries no channel event`);
  return ev.e;
}
function pausedOf(ev: PauseModelEvent): boolean {
  if (!('p' in ev)) throw new TypeError(`${ev.type} carries no value`);
  return ev.p;
}

const set = <T>(f: Readonly<Record<Replica, T>>, r: Replica, v: T): Readonly<Record<Replica, T>> => ({ ...f, [r]: v });
const snapOf = (s: PauseModelState, r: Replica): PauseEvent | null => s.snap[r] ?? null;

/** Hold(r, s): r holds snapshot `x`; applied keeps the highest; dropped keeps only newer versions. */
export function hold(s: PauseModelState, r: Replica, x: PauseEvent): PauseModelState {
  return {
    ...s,
    snap: set(s.snap, r, { paused: x.paused, version: x.version }),
    applied: set(s.applied, r, Math.max(s.applied[r]!, x.version)),
    dropped: set(
      s.dropped,
      r,
      s.dropped[r]!.filter((v) => v > x.version),
    ),
  };
}

/** Publish(e): the event goes to every subscribed replica's channel. */
export function publish(s: PauseModelState, e: PauseEvent): PauseModelState {
  const chan = Object.fromEntries((Object.keys(s.chan) as Replica[]).map((r) => [r, s.subscribed[r] ? normalisedEvents([...s.chan[r]!, e]) : s.chan[r]!])) as Readonly<
    Record<Replica, readonly PauseEvent[]>
  >;
  return { ...s, chan };
}

/** The local update after a publish: hold `e` if r has a snapshot older than it. */
function holdIfNewer(s: PauseModelState, r: Replica, e: PauseEvent): PauseModelState {
  const cur = snapOf(s, r);
  return cur !== null && e.version > cur.version ? hold(s, r, e) : s;
}

const inPending = (s: PauseModelState, c: PendingCall): boolean => s.pending.some((x) => sameCall(x, c));
const inChan = (s: PauseModelState, r: Replica, e: PauseEvent): boolean => (s.chan[r] ?? []).some((x) => sameEvent(x, e));

export const GUARDS = {
  Subscribe_NotSubscribed: (s, ev) => !s.subscribed[replicaOf(ev)],
  // Mutation point, read by Subscribe (subscribe before the load) and Load (only once subscribed).
  Subscribe_BeforeLoad: (s, ev) => (ev.type === 'Subscribe' ? snapOf(s, replicaOf(ev)) === null : s.subscribed[replicaOf(ev)]!),
  Load_NoSnapshot: (s, ev) => snapOf(s, replicaOf(ev)) === null,
  Ready_NotReady: (s, ev) => !s.ready[replicaOf(ev)],
  Ready_AfterSnapshot: (s, ev) => snapOf(s, replicaOf(ev)) !== null && s.subscribed[replicaOf(ev)]!, // mutation point
  BeginSetPaused_Ready: (s, ev) => s.ready[replicaOf(ev)]!,
  BeginSetPaused_CallsLeft: (s, _ev, env) => s.calls < env.bounds.maxCalls,
  SetPaused_PublishAfterWrite: () => true, // mutation point: publish only after the write succeeded
  SetPaused_Pending: (s, ev) => inPending(s, callOf(ev)),
  Channel_Holds: (s, ev) => inChan(s, replicaOf(ev), eventOf(ev)),
  Deliver_Loaded: (s, ev) => snapOf(s, replicaOf(ev)) !== null,
  Deliver_VersionCheck: (s, ev) => eventOf(ev).version > snapOf(s, replicaOf(ev))!.version, // mutation point
  Reconcile_Loaded: (s, ev) => snapOf(s, replicaOf(ev)) !== null,
  Reconcile_ReadsValkey: () => true, // mutation point: the reconciler really reads Valkey
  Reconcile_ValkeyNewer: (s, ev) => version(s) > snapOf(s, replicaOf(ev))!.version,
  Tick_Fresh: (s, ev, env) => snapOf(s, replicaOf(ev)) !== null && s.age[replicaOf(ev)]! <= env.bounds.maxAge,
  // Mutation point of the hot read Answer(r): past the age bound the answer is "unavailable".
  Read_FailClosed: (s, ev, env) => s.age[replicaOf(ev)]! > env.bounds.maxAge,
  // Mutation points of Answer(r) on the other side: a snapshot an event brought is served, with its own value.
  Read_ServesEvents: () => true,
  Read_NewestSnapshot: () => true,
} as const satisfies Record<string, PauseGuard>;

export type PauseGuardName = keyof typeof GUARDS;

export const EFFECTS = {
  Subscribe_Listen: (s, ev) => ({ ...s, subscribed: set(s.subscribed, replicaOf(ev), true) }),
  Load_Initial: (s, ev) => {
    const r = replicaOf(ev);
    const held = hold(s, r, { paused: pausedNow(s), version: version(s) });
    return { ...held, age: set(s.age, r, 0), synced: set(s.synced, r, version(s)) };
  },
  Ready_Report: (s, ev) => ({ ...s, ready: set(s.ready, replicaOf(ev), true) }),
  BeginSetPaused_Count: (s) => ({ ...s, calls: s.calls + 1 }),
  // The real design announces nothing: the pending record's version is 0.
  BeginSetPaused_Accept: (s, ev) => ({ ...s, pending: normalisedCalls([...s.pending, { by: replicaOf(ev), paused: pausedOf(ev), version: 0 }]) }),
  // Without PublishAfterWrite: announce the version the write should get, publish it and hold it locally now.
  BeginSetPaused_PublishEarly: (s, ev) => {
    const r = replicaOf(ev);
    const e: PauseEvent = { paused: pausedOf(ev), version: version(s) + 1 };
    const accepted = { ...s, pending: normalisedCalls([...s.pending, { by: r, ...e }]) };
    return holdIfNewer(publish(accepted, e), r, e);
  },
  // MULTI/EXEC succeeded: version Version + 1 holds c.paused.
  CommitSetPaused_Write: (s, ev) => {
    const c = callOf(ev);
    return { ...s, history: [...s.history, c.paused], pending: s.pending.filter((x) => !sameCall(x, c)) };
  },
  // Runs after CommitSetPaused_Write: publish the version just written, then update the caller's snapshot.
  CommitSetPaused_Publish: (s, ev) => {
    const c = callOf(ev);
    const e: PauseEvent = { paused: c.paused, version: version(s) };
    return holdIfNewer(publish(s, e), c.by, e);
  },
  FailSetPaused_Forget: (s, ev) => ({ ...s, pending: s.pending.filter((x) => !sameCall(x, callOf(ev))) }),
  Channel_Take: (s, ev) => {
    const r = replicaOf(ev);
    return {
      ...s,
      chan: set(
        s.chan,
        r,
        s.chan[r]!.filter((x) => !sameEvent(x, eventOf(ev))),
      ),
    };
  },
  Deliver_Hold: (s, ev) => hold(s, replicaOf(ev), eventOf(ev)),
  // Only a version newer than the snapshot can be missed (before the load: the load reads a newer state).
  Drop_Record: (s, ev) => {
    const r = replicaOf(ev);
    const e = eventOf(ev);
    const cur = snapOf(s, r);
    return cur !== null && e.version > cur.version ? { ...s, dropped: set(s.dropped, r, normalisedVersions([...s.dropped[r]!, e.version])) } : s;
  },
  Reconcile_Apply: (s, ev) => hold(s, replicaOf(ev), { paused: pausedNow(s), version: version(s) }),
  Reconcile_Fresh: (s, ev) => ({ ...s, age: set(s.age, replicaOf(ev), 0), synced: set(s.synced, replicaOf(ev), version(s)) }),
  // Ages every loaded snapshot still within the bound (the others stay capped at MaxAge + 1).
  Tick_Age: (s, _ev, env) => ({
    ...s,
    age: Object.fromEntries((Object.keys(s.age) as Replica[]).map((r) => [r, s.snap[r] !== null && s.age[r]! <= env.bounds.maxAge ? s.age[r]! + 1 : s.age[r]!])) as Readonly<Record<Replica, number>>,
  }),
} as const satisfies Record<string, PauseEffect>;

export type PauseEffectName = keyof typeof EFFECTS;

/** The spec's eight mutation points (MutationPoints), each a named guard above. */
export const PAUSE_MUTATION_POINTS = [
  'Deliver_VersionCheck',
  'SetPaused_PublishAfterWrite',
  'Reconcile_ReadsValkey',
  'Read_FailClosed',
  'Ready_AfterSnapshot',
  'Subscribe_BeforeLoad',
  'Read_ServesEvents',
  'Read_NewestSnapshot',
] as const satisfies readonly PauseGuardName[];
export type PauseMutationPoint = (typeof PAUSE_MUTATION_POINTS)[number];
