/**
 * The XState twin of tla/fencing/failover/FencingReplication.tla. Context = the spec's variables
 * (FailoverModelState); one state node, because no variable is a finite "where we are" worth a
 * region. Every action is one event; its guard is an `and` of named guards (rules.ts), its effect
 * named effects. An `IF c THEN .. ELSE ..` inside an action becomes two candidate transitions of
 * one event, the first guarded by `c`: XState takes the first whose guard passes, so exactly one
 * fires. The mutant replaces the Acquire_WaitReplica guard via provide() (its model patch, mutants/fencing/model/R1.ts).
 */
import { and, assign, setup } from 'xstate';
import { FAILOVER_BASE_BOUNDS, initialFailoverState, type FailoverBounds, type FailoverModelState } from '../../../src/systems/fencing/failover/model-state.js';
import type { FailoverModelEvent } from './events.js';
import { EFFECTS, GUARDS, type FailoverEffect, type FailoverEffectName, type FailoverEnv, type FailoverGuard, type FailoverGuardName } from './rules.js';

/** What a mutant gives: replacements for named guards, written over the spec's variables. */
export interface FailoverOverrides {
  readonly guards?: Partial<Record<FailoverGuardName, FailoverGuard>>;
}

type XGuard = (args: { context: FailoverModelState; event: FailoverModelEvent }) => boolean;
type XAction = ReturnType<typeof assign<FailoverModelState, FailoverModelEvent, undefined, FailoverModelEvent, never>>;

/** The guard and action implementations for given constants and overrides (what provide() receives). */
export function failoverImplementations(bounds: FailoverBounds, overrides: FailoverOverrides = {}) {
  const env: FailoverEnv = { bounds };
  const guards = Object.fromEntries(
    (Object.keys(GUARDS) as FailoverGuardName[]).map((name) => {
      const g: FailoverGuard = overrides.guards?.[name] ?? GUARDS[name];
      const impl: XGuard = ({ context, event }) => g(context, event, env);
      return [name, impl];
    }),
  ) as Record<FailoverGuardName, XGuard>;
  const actions = Object.fromEntries(
    (Object.keys(EFFECTS) as FailoverEffectName[]).map((name) => {
      const e: FailoverEffect = EFFECTS[name];
      const impl: XAction = assign(({ context, event }) => e(context, event, env));
      return [name, impl];
    }),
  ) as Record<FailoverEffectName, XAction>;
  return { guards, actions };
}

const base = failoverImplementations(FAILOVER_BASE_BOUNDS);

const ACQUIRE = ['Acquire_NotHeld', 'Pod_NotWaiting', 'Acquire_LeaseFree', 'Acquire_GenLeft'] as const;

export const failoverMachine = setup({
  types: {
    context: {} as FailoverModelState,
    events: {} as FailoverModelEvent,
    input: {} as { bounds?: FailoverBounds } | undefined,
  },
  guards: base.guards,
  actions: base.actions,
}).createMachine({
  id: 'failover',
  initial: 'running',
  context: ({ input }) => initialFailoverState(input?.bounds ?? FAILOVER_BASE_BOUNDS),
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

export type FailoverMachine = typeof failoverMachine;
