import type { PendingAcquire, Pod, FailoverBounds, FailoverModelState } from '../../../src/systems/fencing/failover/model-state.js';

/**
 * Which disjunct of Expire's guard `held[p] # 0 \/ primary.lease.owner = p \/ replica.lease.owner = p`
 * holds: TLC generates one successor per true disjunct (its "states generated" counts each), so
 * Expire carries it as a witness; every witness leads to the same state.
 */
export type ExpireWitness = 'held' | 'primary' | 'replica';
export const EXPIRE_WITNESSES = ['held', 'primary', 'replica'] as const satisfies readonly ExpireWitness[];

/**
 * One event per TLA+ action instance of tla/fencing/failover/FencingReplication.tla's Next: the `\E` of
 * Next becomes the event's parameter (`p` a pod, `a` a pending acquire); Expire also carries its
 * guard's witness `by`.
 */
export type FailoverModelEvent =
  | { readonly type: 'Acquire' | 'Release'; readonly p: Pod }
  | { readonly type: 'Expire'; readonly p: Pod; readonly by: ExpireWitness }
  | { readonly type: 'WaitAcked' | 'WaitTimedOut'; readonly a: PendingAcquire }
  | { readonly type: 'Replicate' | 'Failover' };

export type FailoverEventType = FailoverModelEvent['type'];

/** The spec's action names, in Next's order. */
export const FAILOVER_ACTIONS = ['Acquire', 'Release', 'Expire', 'WaitAcked', 'WaitTimedOut', 'Replicate', 'Failover'] as const satisfies readonly FailoverEventType[];

/**
 * The action instances TLC tries in `s`, in Next's order: Pods, then `\E a \in pending` (the
 * state's own set). Whether one is enabled is the machine's answer (its guards), not this list's.
 */
export function candidateEvents(s: FailoverModelState, b: FailoverBounds): FailoverModelEvent[] {
  const out: FailoverModelEvent[] = [];
  for (const p of b.pods) {
    out.push({ type: 'Acquire', p }, { type: 'Release', p });
    for (const by of EXPIRE_WITNESSES) out.push({ type: 'Expire', p, by });
  }
  for (const a of s.pending) for (const type of ['WaitAcked', 'WaitTimedOut'] as const) out.push({ type, a });
  out.push({ type: 'Replicate' }, { type: 'Failover' });
  return out;
}

/** `Acquire(p1)`, `WaitAcked([pod |-> p1, gen |-> 1])`, `Failover`: the TLA+ action instance (Expire's witness is not part of it). */
export function failoverEventLabel(ev: FailoverModelEvent): string {
  switch (ev.type) {
    case 'WaitAcked':
    case 'WaitTimedOut':
      return `${ev.type}([pod |-> ${ev.a.pod}, gen |-> ${ev.a.gen}])`;
    case 'Replicate':
    case 'Failover':
      return ev.type;
    default:
      return `${ev.type}(${ev.p})`;
  }
}
