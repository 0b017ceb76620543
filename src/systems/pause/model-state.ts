/**
 * The pause snapshot's model state, named exactly as tla/pause/PauseSnapshot.tla's variables. The
 * XState twin (models/pause/) runs on it, TLC's dump is parsed into it (src/systems/pause/system.ts), and
 * `pauseKey` is the one canonical form both sides are compared in. Sets are kept as sorted,
 * duplicate-free arrays (`normalised*`), and `pauseKey` sorts again so any order encodes the same.
 * (Not the real implementation's `PauseState` of keys.ts: this is the spec's view.)
 */

/** Replicas are TLA+ model values r1..rN. */
export type Replica = `r${number}`;

/** A snapshot or an invalidation event: TLA+ `[paused |-> p, version |-> v]`. */
export interface PauseEvent {
  readonly paused: boolean;
  readonly version: number;
}

/** A SetPaused call begun and not yet written: TLA+ `[by |-> r, paused |-> p, version |-> v]`. */
export interface PendingCall {
  readonly by: Replica;
  readonly paused: boolean;
  readonly version: number;
}

export type PerReplica<T> = Readonly<Record<Replica, T>>;

export interface PauseModelState {
  readonly history: readonly boolean[];
  readonly calls: number;
  readonly pending: readonly PendingCall[];
  readonly chan: PerReplica<readonly PauseEvent[]>;
  readonly dropped: PerReplica<readonly number[]>;
  readonly subscribed: PerReplica<boolean>;
  /** null is the spec's `None` (before the initial load). */
  readonly snap: PerReplica<PauseEvent | null>;
  readonly age: PerReplica<number>;
  readonly ready: PerReplica<boolean>;
  readonly applied: PerReplica<number>;
  readonly synced: PerReplica<number>;
}

/** The spec's variables, in `vars` order. */
export const PAUSE_VARIABLES = ['history', 'calls', 'pending', 'chan', 'dropped', 'subscribed', 'snap', 'age', 'ready', 'applied', 'synced'] as const satisfies readonly (keyof PauseModelState)[];

/** The constants of one check: Replicas, MaxCalls, MaxAge. */
export interface PauseBounds {
  readonly replicas: readonly Replica[];
  readonly maxCalls: number;
  readonly maxAge: number;
}

/** tla/pause/PauseSnapshot.cfg. */
export const PAUSE_BASE_BOUNDS: PauseBounds = { replicas: ['r1', 'r2'], maxCalls: 2, maxAge: 0 };

const perReplica = <T>(b: PauseBounds, v: T): PerReplica<T> => Object.fromEntries(b.replicas.map((r) => [r, v])) as PerReplica<T>;

/** Init. */
export function initialPauseState(b: PauseBounds): PauseModelState {
  return {
    history: [],
    calls: 0,
    pending: [],
    chan: perReplica(b, []),
    dropped: perReplica(b, []),
    subscribed: perReplica(b, false),
    snap: perReplica(b, null),
    age: perReplica(b, 0),
    ready: perReplica(b, false),
    applied: perReplica(b, 0),
    synced: perReplica(b, 0),
  };
}

/** The spec's `Version` and `Paused`: Valkey's current version and value. */
export const version = (s: PauseModelState): number => s.history.length;
export const pausedNow = (s: PauseModelState): boolean => (s.history.length === 0 ? false : s.history[s.history.length - 1]!);

const b = (x: boolean): string => (x ? 'T' : 'F');
export const eventText = (e: PauseEvent): string => `${b(e.paused)}/${e.version}`;
export const callText = (c: PendingCall): string => `${c.by}/${b(c.paused)}/${c.version}`;

const byReplica = (a: string, c: string): number => Number(a.slice(1)) - Number(c.slice(1)) || (a < c ? -1 : a > c ? 1 : 0);
const replicasOf = (s: PauseModelState): Replica[] => (Object.keys(s.snap) as Replica[]).sort(byReplica);
const setText = (items: readonly string[]): string => `{${[...new Set(items)].sort().join(',')}}`;

/**
 * The canonical key: every variable in `vars` order, sets sorted and de-duplicated, replicas in
 * numeric order. Two states have one key exactly when TLC would count them as one.
 */
export function pauseKey(s: PauseModelState): string {
  const rs = replicasOf(s);
  const each = <T>(f: PerReplica<T>, show: (v: T) => string): string => rs.map((r) => `${r}:${show(f[r]!)}`).join(',');
  return [
    `history=${s.history.map(b).join('')}`,
    `calls=${s.calls}`,
    `pending=${setText(s.pending.map(callText))}`,
    `chan=${each(s.chan, (es) => setText(es.map(eventText)))}`,
    `dropped=${each(s.dropped, (vs) => setText(vs.map(String)))}`,
    `subscribed=${each(s.subscribed, b)}`,
    `snap=${each(s.snap, (x) => (x === null ? 'None' : eventText(x)))}`,
    `age=${each(s.age, String)}`,
    `ready=${each(s.ready, b)}`,
    `applied=${each(s.applied, String)}`,
    `synced=${each(s.synced, String)}`,
  ].join(';');
}

const cmpEvent = (x: PauseEvent, y: PauseEvent): number => x.version - y.version || Number(x.paused) - Number(y.paused);
const cmpCall = (x: PendingCall, y: PendingCall): number => byReplica(x.by, y.by) || cmpEvent(x, y);

/** A set of events as the state keeps it: sorted, no duplicates (TLA+ set semantics). */
export function normalisedEvents(es: readonly PauseEvent[]): PauseEvent[] {
  return [...es].sort(cmpEvent).filter((e, i, a) => i === 0 || cmpEvent(a[i - 1]!, e) !== 0);
}
export function normalisedCalls(cs: readonly PendingCall[]): PendingCall[] {
  return [...cs].sort(cmpCall).filter((c, i, a) => i === 0 || cmpCall(a[i - 1]!, c) !== 0);
}
export function normalisedVersions(vs: readonly number[]): number[] {
  return [...new Set(vs)].sort((x, y) => x - y);
}
export const sameEvent = (x: PauseEvent, y: PauseEvent): boolean => cmpEvent(x, y) === 0;
export const sameCall = (x: PendingCall, y: PendingCall): boolean => cmpCall(x, y) === 0;
