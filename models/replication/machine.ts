/**
 * The XState twin of tla/replication/FencingReplication.tla. Context = the spec's variables
 * (ReplicationModelState); one state node, because no variable is a finite "where we are" worth a
 * region. Every action is one event; its guard is an `and` of named guards (rules.ts), its effect
 * named effects. An `IF c THEN .. ELSE ..` inside an action becomes two candidate transitions of
 * one event, the first guarded by `c`: XState takes the first whose guard passes, so exactly one
 * fires. The mutant replaces the Acquire_WaitReplica guard via provide() (its model patch, mutants/model/replication/R1.ts).
 */
import { and, assign, setup } from 'xstate';
import { REPLICATION_BASE_BOUNDS, initialReplicationState, type ReplicationBounds, type ReplicationModelState } from '../../src/replication/model-state.js';
import type { ReplicationModelEvent } from './events.js';
import { EFFECTS, GUARDS, type ReplicationEffect, type ReplicationEffectName, type ReplicationEnv, type ReplicationGuard, type ReplicationGuardName } from './rules.js';

/** What a mutant gives: replacements for named guards, written over the spec's variables. */
export interface ReplicationOverrides {
  readonly guards?: Partial<Record<ReplicationGuardName, ReplicationGuard>>;
}

type XGuard = (args: { context: ReplicationModelState; event: ReplicationModelEvent }) => boolean;
type XAction = ReturnType<typeof assign<ReplicationModelState, ReplicationModelEvent, undefined, ReplicationModelEvent, never>>;

/** The guard and action implementations for given constants and overrides (what provide() receives). */
export function replicationImplementations(bounds: ReplicationBounds, overrides: ReplicationOverrides = {}) {
  const env: ReplicationEnv = { bounds };
  const guards = Object.fromEntries(
    (Object.keys(GUARDS) as ReplicationGuardName[]).map((name) => {
      const g: ReplicationGuard = overrides.guards?.[name] ?? GUARDS[name];
      const impl: XGuard = ({ context, event }) => g(context, event, env);
      return [name, impl];
    }),
  ) as Record<ReplicationGuardName, XGuard>;
  const actions = Object.fromEntries(
    (Object.keys(EFFECTS) as ReplicationEffectName[]).map((name) => {
      const e: ReplicationEffect = EFFECTS[name];
      const impl: XAction = assign(({ context, event }) => e(context, event, env));
      return [name, impl];
    }),
  ) as Record<ReplicationEffectName, XAction>;
  return { guards, actions };
}

const base = replicationImplementations(REPLICATION_BASE_BOUNDS);

const ACQUIRE = ['Acquire_NotHeld', 'Pod_NotWaiting', 'Acquire_LeaseFree', 'Acquire_GenLeft'] as const;

export const replicationMachine = setup({
  types: {
    context: {} as ReplicationModelState,
    events: {} as ReplicationModelEvent,
    input: {} as { bounds?: ReplicationBounds } | undefined,
  },
  guards: base.guards,
  actions: base.actions,
}).createMachine({
  id: 'replication',
  initial: 'running',
  context: ({ input }) => initialReplicationState(input?.bounds ?? REPLICATION_BASE_BOUNDS),
  states: {
    running: {
      on: {
        Acquire: [
          { guard: and([...ACQUIRE, 'Acquire_WaitReplica']), actions: ['Acquire_Write', 'Acquire_Wait'] },
          { guard: and([...ACQUIRE]), actions: ['Acquire_Write', 'Acquire_Ack'] },
        ],
        WaitAcked: { guard: and(['Pending_Holds', 'WaitAcked_Replicated']), actions: ['Pending_Take', 'WaitAcked_Ack'] },
        WaitTimedOut: { guard: 'Pending_Holds', actions: ['Pending_Take'] },
        Replicate: { guard: 'Replicate_Behind', actions: ['Replicate_CatchUp'] },
        Release: [
          { guard: and(['Release_Holding', 'Release_OwnsLease']), actions: ['Release_Delete', 'Pod_Forget'] },
          // Someone else's lease (or none): compare-and-delete deletes nothing; p stops fencing either way.
          { guard: 'Release_Holding', actions: ['Pod_Forget'] },
        ],
        Expire: { guard: and(['Expire_Witness', 'Pod_NotWaiting']), actions: ['Expire_Lease', 'Pod_Forget'] },
        Failover: { guard: 'Failover_Left', actions: ['Failover_Promote'] },
      },
    },
  },
});

export type ReplicationMachine = typeof replicationMachine;
