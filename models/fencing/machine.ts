/**
 * The XState twin of tla/fencing/RedisClusterFencingMigration.tla.
 *
 * Context = the spec's variables (FencingState). Two parallel regions carry the two finite
 * variables a reader thinks of as "where we are": `mode` (the cluster mode doors; nothing leaves
 * `enabled`, axiom A3) and `target` (the phase O/A/B/C the fleet is chasing). Their state nodes and
 * the context's `mode`/`target` always agree (the effects that move them assign the same value;
 * test/fencing/model/machine.test.ts checks it on every reachable state). Everything else — acquisitions,
 * the renew-migrate, expiry, per-pod upgrade/downgrade — is a root-level transition that leaves
 * both regions where they are.
 *
 * Every TLA+ action is one event; its guard is the conjunction (`and`) of named guards from
 * rules.ts, its effect the named effects of EFFECTS_OF. A mutant replaces one name via provide().
 */
import { and, assign, setup } from 'xstate';
import { DEFAULT_BOUNDS, initialState, type FencingBounds, type FencingState } from '../../src/systems/fencing/state.js';
import type { FencingEvent } from './events.js';
import { EFFECTS, EFFECTS_OF, GUARDS, type EffectName, type GuardEnv, type GuardName, type SpecEffect, type SpecGuard } from './rules.js';

/**
 * What a mutant (mutants/fencing/model/Mx.ts) default-exports: replacements for named guards and named
 * effects, written over the spec's variables. `implementationsFor` turns them into the XState
 * implementations handed to `machine.provide()`.
 */
export interface FencingOverrides {
  readonly guards?: Partial<Record<GuardName, SpecGuard>>;
  readonly actions?: Partial<Record<EffectName, SpecEffect>>;
}

type XGuard = (args: { context: FencingState; event: FencingEvent }) => boolean;

/** The guard and action implementations for given constants and overrides (what provide() receives). */
export function implementationsFor(bounds: FencingBounds, overrides: FencingOverrides = {}) {
  const effectOf = (name: EffectName): SpecEffect => overrides.actions?.[name] ?? EFFECTS[name];
  const env: GuardEnv = { bounds, effect: (name, s, ev) => effectOf(name)(s, ev) };
  const guards = Object.fromEntries(
    (Object.keys(GUARDS) as GuardName[]).map((name) => {
      const g: SpecGuard = overrides.guards?.[name] ?? GUARDS[name];
      const impl: XGuard = ({ context, event }) => g(context, event, env);
      return [name, impl];
    }),
  ) as Record<GuardName, XGuard>;
  const actions = Object.fromEntries(
    (Object.keys(EFFECTS) as EffectName[]).map((name) => {
      const e = effectOf(name);
      return [name, assign<FencingState, FencingEvent, undefined, FencingEvent, never>(({ context, event }) => e(context, event))];
    }),
  ) as Record<EffectName, ReturnType<typeof assign<FencingState, FencingEvent, undefined, FencingEvent, never>>>;
  return { guards, actions };
}

const base = implementationsFor(DEFAULT_BOUNDS);

export const fencingMachine = setup({
  types: {
    context: {} as FencingState,
    events: {} as FencingEvent,
    input: {} as { bounds?: FencingBounds } | undefined,
  },
  guards: base.guards,
  actions: base.actions,
}).createMachine({
  id: 'fencing',
  type: 'parallel',
  // Init: every pod on O, target O, both leases free, counters 0, mode disabled.
  context: ({ input }) => initialState(input?.bounds ?? DEFAULT_BOUNDS),
  on: {
    AcquireO: {
      guard: and(['AcquireO_PodOnO', 'AcquireO_OldLeaseFree', 'AcquireO_WithinMaxGen']),
      actions: EFFECTS_OF.AcquireO,
    },
    AcquireA: {
      guard: and(['AcquireA_PodOnA', 'AcquireA_OldLeaseFree', 'AcquireA_NewLeaseFree', 'AcquireA_WithinMaxGen']),
      actions: EFFECTS_OF.AcquireA,
    },
    AcquireB: {
      guard: and(['AcquireB_PodOnB', 'AcquireB_OldLeaseFree', 'AcquireB_NewLeaseFree', 'AcquireB_WithinMaxGen']),
      actions: EFFECTS_OF.AcquireB,
    },
    AcquireC: {
      guard: and(['AcquireC_PodOnC', 'AcquireC_NewLeaseFree', 'AcquireC_WithinMaxGen']),
      actions: EFFECTS_OF.AcquireC,
    },
    MigrateB: {
      guard: and(['MigrateB_PodOnB', 'MigrateB_OwnsOldLease', 'MigrateB_NewLeaseFree']),
      actions: EFFECTS_OF.MigrateB,
    },
    ExpireOld: { guard: 'ExpireOld_Live', actions: EFFECTS_OF.ExpireOld },
    ExpireNew: { guard: 'ExpireNew_Live', actions: EFFECTS_OF.ExpireNew },
    UpgradePod: { guard: 'UpgradePod_OneBelowTarget', actions: EFFECTS_OF.UpgradePod },
    DowngradePod: { guard: 'DowngradePod_AboveTarget', actions: EFFECTS_OF.DowngradePod },
  },
  states: {
    mode: {
      initial: 'disabled',
      states: {
        disabled: {
          on: {
            EnterCompatible: {
              target: 'compatible',
              guard: and(['EnterCompatible_FleetOnC', 'EnterCompatible_Backfilled', 'EnterCompatible_OldLeaseFree']),
              actions: EFFECTS_OF.EnterCompatible,
            },
          },
        },
        compatible: {
          on: {
            RevertDisabled: { target: 'disabled', actions: EFFECTS_OF.RevertDisabled },
            Enable: { target: 'enabled', actions: EFFECTS_OF.Enable },
          },
        },
        // A3: the one-way door. No transition leaves `enabled`.
        enabled: {},
      },
    },
    target: {
      initial: 'O',
      states: {
        O: {
          on: {
            AdvanceTarget: {
              target: 'A',
              guard: and(['AdvanceTarget_ModeDisabled', 'AdvanceTarget_FleetAtTarget']),
              actions: EFFECTS_OF.AdvanceTarget,
            },
          },
        },
        A: {
          on: {
            AdvanceTarget: {
              target: 'B',
              guard: and(['AdvanceTarget_ModeDisabled', 'AdvanceTarget_FleetAtTarget']),
              actions: EFFECTS_OF.AdvanceTarget,
            },
            // Rolling back past A into O: new keyspace drained and the reverse max-merge done.
            RollbackPhase: {
              target: 'O',
              guard: and(['Rollback_ModeDisabled', 'Rollback_NoPodAboveTarget', 'RollbackToO_NewLeaseFree', 'RollbackToO_ReverseMerged']),
              actions: EFFECTS_OF.RollbackPhase,
            },
            ReverseMerge: { actions: EFFECTS_OF.ReverseMerge },
          },
        },
        B: {
          on: {
            // B → C passes the C-gate: backfill complete and no live old-key lease.
            AdvanceTarget: {
              target: 'C',
              guard: and(['AdvanceTarget_ModeDisabled', 'AdvanceTarget_FleetAtTarget', 'AdvanceToC_Gate']),
              actions: EFFECTS_OF.AdvanceTarget,
            },
            RollbackPhase: {
              target: 'A',
              guard: and(['Rollback_ModeDisabled', 'Rollback_NoPodAboveTarget']),
              actions: EFFECTS_OF.RollbackPhase,
            },
            Backfill: { guard: 'Backfill_FleetOnB', actions: EFFECTS_OF.Backfill },
          },
        },
        C: {
          on: {
            RollbackPhase: {
              target: 'B',
              guard: and(['Rollback_ModeDisabled', 'Rollback_NoPodAboveTarget']),
              actions: EFFECTS_OF.RollbackPhase,
            },
          },
        },
      },
    },
  },
});

export type FencingMachine = typeof fencingMachine;
