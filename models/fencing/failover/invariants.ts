/** FencingReplication.tla's invariants over FailoverModelState, in the base config's order. */
import type { Pod, FailoverBounds, FailoverModelState, Store } from '../../../src/systems/fencing/failover/model-state.js';

export const FAILOVER_INVARIANT_NAMES = ['TypeOK', 'Inv_SingleAuthority', 'Inv_Monotonic'] as const;
export type FailoverInvariantName = (typeof FAILOVER_INVARIANT_NAMES)[number];

export type FailoverInvariant = (s: FailoverModelState) => boolean;

const within = (x: number, lo: number, hi: number): boolean => Number.isInteger(x) && x >= lo && x <= hi;

export function failoverInvariants(b: FailoverBounds): Readonly<Record<FailoverInvariantName, FailoverInvariant>> {
  const pod = (p: Pod): boolean => b.pods.includes(p);
  const store = (x: Store): boolean => (x.lease.owner === null || pod(x.lease.owner)) && within(x.lease.gen, 0, b.maxGen) && within(x.gen, 0, b.maxGen);
  return {
    TypeOK: (s) =>
      store(s.primary) &&
      store(s.replica) &&
      s.pending.every((a) => pod(a.pod) && within(a.gen, 1, b.maxGen)) &&
      Object.keys(s.held).length === b.pods.length &&
      b.pods.every((p) => within(s.held[p] ?? -1, 0, b.maxGen)) &&
      within(s.lastAcked, 0, b.maxGen) &&
      within(s.failovers, 0, b.maxFailovers),
    // T1: at most one pod fences with a live lease.
    Inv_SingleAuthority: (s) => b.pods.filter((p) => s.held[p] !== 0).length <= 1,
    // T2: no generation is told to a client twice.
    Inv_Monotonic: (s) => s.monoOk,
  };
}
