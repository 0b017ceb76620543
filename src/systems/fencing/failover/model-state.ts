/**
 * The failover model's state, named exactly as tla/fencing/failover/FencingReplication.tla's variables.
 * The XState twin (models/fencing/failover/) runs on it, TLC's dump is parsed into it
 * (src/systems/fencing/failover/system.ts), and `failoverKey` is the one canonical form both sides are
 * compared in. `pending` is a set: kept sorted and duplicate-free (`normalisedPending`), and the key
 * sorts again so any order encodes the same. (The spec's view, not the drill's: see drill.ts.)
 */

/** Relay pods are TLA+ model values p1..pN. */
export type Pod = `p${number}`;

/** The lease key: TLA+ `[owner |-> p, gen |-> g]`; owner null is the spec's `None` (Free). */
export interface Lease {
  readonly owner: Pod | null;
  readonly gen: number;
}

/** What one node holds of the session: TLA+ `Store`, the lease and the generation counter. */
export interface Store {
  readonly lease: Lease;
  readonly gen: number;
}

/** An acquire applied on the primary whose client waits for the replica: `[pod |-> p, gen |-> g]`. */
export interface PendingAcquire {
  readonly pod: Pod;
  readonly gen: number;
}

export interface FailoverModelState {
  readonly primary: Store;
  readonly replica: Store;
  readonly pending: readonly PendingAcquire[];
  /** held[p]: the generation p fences with (0: none). */
  readonly held: Readonly<Record<Pod, number>>;
  readonly lastAcked: number;
  readonly monoOk: boolean;
  readonly failovers: number;
}

/** The spec's variables, in `vars` order. */
export const FAILOVER_VARIABLES = ['primary', 'replica', 'pending', 'held', 'lastAcked', 'monoOk', 'failovers'] as const satisfies readonly (keyof FailoverModelState)[];

/** The constants of one check: Pods, MaxGen, MaxFailovers (Dropped is the mutant's override). */
export interface FailoverBounds {
  readonly pods: readonly Pod[];
  readonly maxGen: number;
  readonly maxFailovers: number;
}

/** tla/fencing/failover/FencingReplication.cfg. */
export const FAILOVER_BASE_BOUNDS: FailoverBounds = { pods: ['p1', 'p2', 'p3'], maxGen: 4, maxFailovers: 1 };

export const FREE: Lease = { owner: null, gen: 0 };

/** Init. */
export function initialFailoverState(b: FailoverBounds): FailoverModelState {
  const primary: Store = { lease: FREE, gen: 0 };
  return {
    primary,
    replica: primary,
    pending: [],
    held: Object.fromEntries(b.pods.map((p) => [p, 0])) as Readonly<Record<Pod, number>>,
    lastAcked: 0,
    monoOk: true,
    failovers: 0,
  };
}

export const sameLease = (x: Lease, y: Lease): boolean => x.owner === y.owner && x.gen === y.gen;
export const sameStore = (x: Store, y: Store): boolean => sameLease(x.lease, y.lease) && x.gen === y.gen;

const byPod = (a: string, c: string): number => Number(a.slice(1)) - Number(c.slice(1)) || (a < c ? -1 : a > c ? 1 : 0);
const cmpPending = (x: PendingAcquire, y: PendingAcquire): number => byPod(x.pod, y.pod) || x.gen - y.gen;
export const samePending = (x: PendingAcquire, y: PendingAcquire): boolean => cmpPending(x, y) === 0;

/** A set of pending acquires as the state keeps it: sorted, no duplicates (TLA+ set semantics). */
export function normalisedPending(ps: readonly PendingAcquire[]): PendingAcquire[] {
  return [...ps].sort(cmpPending).filter((x, i, a) => i === 0 || !samePending(a[i - 1]!, x));
}

const leaseText = (l: Lease): string => `${l.owner ?? 'None'}/${l.gen}`;
const storeText = (s: Store): string => `${leaseText(s.lease)}#${s.gen}`;
export const pendingText = (a: PendingAcquire): string => `${a.pod}/${a.gen}`;

/**
 * The canonical key: every variable in `vars` order (a store as `owner/leaseGen#counter`), pending
 * sorted and de-duplicated, pods in numeric order. Two states have one key exactly when TLC would
 * count them as one.
 */
export function failoverKey(s: FailoverModelState): string {
  const pods = (Object.keys(s.held) as Pod[]).sort(byPod);
  return [
    `primary=${storeText(s.primary)}`,
    `replica=${storeText(s.replica)}`,
    `pending={${[...new Set(s.pending.map(pendingText))].sort().join(',')}}`,
    `held=${pods.map((p) => `${p}:${s.held[p]}`).join(',')}`,
    `lastAcked=${s.lastAcked}`,
    `monoOk=${s.monoOk ? 'T' : 'F'}`,
    `failovers=${s.failovers}`,
  ].join(';');
}
