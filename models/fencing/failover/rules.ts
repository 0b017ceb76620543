/**
 * FencingReplication.tla's guards and effects as named pure functions over the spec's variables.
 * The machine (machine.ts) refers to them by name only, so a mutant replaces exactly one name with
 * `machine.provide()`. The mutation point keeps the spec's name, Acquire_WaitReplica: it returns
 * the spec's `Kept(name)` branch (TRUE), and the mutant returns the other one.
 */
import {
  FREE,
  normalisedPending,
  sameLease,
  samePending,
  sameStore,
  type PendingAcquire,
  type Pod,
  type FailoverBounds,
  type FailoverModelState,
} from '../../../src/systems/fencing/failover/model-state.js';
import type { FailoverModelEvent } from './events.js';

export interface FailoverEnv {
  readonly bounds: FailoverBounds;
}

export type FailoverGuard = (s: FailoverModelState, ev: FailoverModelEvent, env: FailoverEnv) => boolean;
export type FailoverEffect = (s: FailoverModelState, ev: FailoverModelEvent, env: FailoverEnv) => FailoverModelState;

/** The pod / pending-acquire parameter of an event; a rule given the wrong event is a wiring bug. */
export function podOf(ev: FailoverModelEvent): Pod {
  if (!('p' in ev)) throw new TypeError(`${ev.type} carries no pod`);
  return ev.p;
}
export function acquireOf(ev: FailoverModelEvent): PendingAcquire {
  if (!('a' in ev)) throw new TypeError(`${ev.type} carries no pending acquire`);
  return ev.a;
}

const waiting = (s: FailoverModelState, p: Pod): boolean => s.pending.some((a) => a.pod === p);

/** Ack(p, g): p is told "applied" and fences with g; the history variables record whether g was new. */
export function ack(s: FailoverModelState, p: Pod, g: number): FailoverModelState {
  return { ...s, held: { ...s.held, [p]: g }, monoOk: s.monoOk && g > s.lastAcked, lastAcked: Math.max(s.lastAcked, g) };
}

export const GUARDS = {
  Acquire_NotHeld: (s, ev) => s.held[podOf(ev)] === 0,
  Pod_NotWaiting: (s, ev) => !waiting(s, podOf(ev)),
  Acquire_LeaseFree: (s) => s.primary.lease.owner === null,
  Acquire_GenLeft: (s, _ev, env) => s.primary.gen < env.bounds.maxGen,
  Acquire_WaitReplica: () => true, // mutation point: the client waits for WAIT 1 before using the generation
  Pending_Holds: (s, ev) => s.pending.some((a) => samePending(a, acquireOf(ev))),
  WaitAcked_Replicated: (s, ev) => s.replica.gen >= acquireOf(ev).gen,
  Replicate_Behind: (s) => !sameStore(s.replica, s.primary),
  Release_Holding: (s, ev) => s.held[podOf(ev)] !== 0,
  Release_OwnsLease: (s, ev) => sameLease(s.primary.lease, { owner: podOf(ev), gen: s.held[podOf(ev)]! }),
  // Expire's guard, one disjunct per witness (TLC generates a successor for each one that holds).
  Expire_Witness: (s, ev) => {
    if (ev.type !== 'Expire') throw new TypeError(`${ev.type} carries no expire witness`);
    const p = ev.p;
    return ev.by === 'held' ? s.held[p] !== 0 : ev.by === 'primary' ? s.primary.lease.owner === p : s.replica.lease.owner === p;
  },
  Failover_Left: (s, _ev, env) => s.failovers < env.bounds.maxFailovers,
} as const satisfies Record<string, FailoverGuard>;

export type FailoverGuardName = keyof typeof GUARDS;

export const EFFECTS = {
  // ops/acquire_c on the primary: INCR the counter, SET the lease.
  Acquire_Write: (s, ev) => {
    const g = s.primary.gen + 1;
    return { ...s, primary: { lease: { owner: podOf(ev), gen: g }, gen: g } };
  },
  // Runs after Acquire_Write (reads the generation it wrote): with the remedy, wait for the replica.
  Acquire_Wait: (s, ev) => ({ ...s, pending: normalisedPending([...s.pending, { pod: podOf(ev), gen: s.primary.gen }]) }),
  // Without it: the primary's reply is the acknowledgement.
  Acquire_Ack: (s, ev) => ack(s, podOf(ev), s.primary.gen),
  Pending_Take: (s, ev) => ({ ...s, pending: s.pending.filter((a) => !samePending(a, acquireOf(ev))) }),
  WaitAcked_Ack: (s, ev) => ack(s, acquireOf(ev).pod, acquireOf(ev).gen),
  Replicate_CatchUp: (s) => ({ ...s, replica: s.primary }),
  Release_Delete: (s) => ({ ...s, primary: { ...s.primary, lease: FREE } }),
  Pod_Forget: (s, ev) => ({ ...s, held: { ...s.held, [podOf(ev)]: 0 } }),
  // The TTL is an absolute time: the key expires on every node that has it.
  Expire_Lease: (s, ev) => {
    const p = podOf(ev);
    return {
      ...s,
      primary: s.primary.lease.owner === p ? { ...s.primary, lease: FREE } : s.primary,
      replica: s.replica.lease.owner === p ? { ...s.replica, lease: FREE } : s.replica,
    };
  },
  // The replica is promoted with what it had; clients waiting on the old primary get "unknown".
  Failover_Promote: (s) => ({ ...s, primary: s.replica, pending: [], failovers: s.failovers + 1 }),
} as const satisfies Record<string, FailoverEffect>;

export type FailoverEffectName = keyof typeof EFFECTS;

/** The spec's mutation points (MutationPoints), each a named guard above. */
export const FAILOVER_MUTATION_POINTS = ['Acquire_WaitReplica'] as const satisfies readonly FailoverGuardName[];
export type FailoverMutationPoint = (typeof FAILOVER_MUTATION_POINTS)[number];
