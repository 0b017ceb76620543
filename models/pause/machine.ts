/**
 * The XState twin of tla/pause/PauseSnapshot.tla. Context = the spec's variables (PauseModelState);
 * one state node, because no variable is a finite "where we are" worth a region. Every action is
 * one event; its guard is an `and` of named guards (rules.ts), its effect named effects. An
 * `IF c THEN Hold ELSE UNCHANGED` inside an action becomes two candidate transitions of one event,
 * the first guarded by `c`: XState takes the first whose guard passes, so exactly one fires.
 * A mutant replaces one guard via provide() (its model patch, mutants/pause/model/Pn.ts).
 */
import { and, assign, setup } from 'xstate';
import { PAUSE_BASE_BOUNDS, initialPauseState, type PauseBounds, type PauseModelState } from '../../src/systems/pause/model-state.js';
import type { PauseModelEvent } from './events.js';
import { EFFECTS, GUARDS, type PauseEffectName, type PauseEnv, type PauseGuard, type PauseGuardName } from './rules.js';

/** What a mutant gives: replacements for named guards, written over the spec's variables. */
export interface PauseOverrides {
  readonly guards?: Partial<Record<PauseGuardName, PauseGuard>>;
}

type XGuard = (args: { context: PauseModelState; event: PauseModelEvent }) => boolean;
type XAction = ReturnType<typeof assign<PauseModelState, PauseModelEvent, undefined, PauseModelEvent, never>>;

/** The guard and action implementations for given constants and overrides (what provide() receives). */
export function pauseImplementations(bounds: PauseBounds, overrides: PauseOverrides = {}) {
  const env: PauseEnv = { bounds };
  const guards = Object.fromEntries(
    (Object.keys(GUARDS) as PauseGuardName[]).map((name) => {
      const g: PauseGuard = overrides.guards?.[name] ?? GUARDS[name];
      const impl: XGuard = ({ context, event }) => g(context, event, env);
      return [name, impl];
    }),
  ) as Record<PauseGuardName, XGuard>;
  const actions = Object.fromEntries(
    (Object.keys(EFFECTS) as PauseEffectName[]).map((name) => {
      const e = EFFECTS[name];
      const impl: XAction = assign(({ context, event }) => e(context, event, env));
      return [name, impl];
    }),
  ) as Record<PauseEffectName, XAction>;
  return { guards, actions };
}

const base = pauseImplementations(PAUSE_BASE_BOUNDS);

export const pauseMachine = setup({
  types: {
    context: {} as PauseModelState,
    events: {} as PauseModelEvent,
    input: {} as { bounds?: PauseBounds } | undefined,
  },
  guards: base.guards,
  actions: base.actions,
}).createMachine({
  id: 'pause',
  initial: 'running',
  context: ({ input }) => initialPauseState(input?.bounds ?? PAUSE_BASE_BOUNDS),
  states: {
    running: {
      on: {
        Subscribe: { guard: and(['Subscribe_NotSubscribed', 'Subscribe_BeforeLoad']), actions: ['Subscribe_Listen'] },
        Load: { guard: and(['Load_NoSnapshot', 'Subscribe_BeforeLoad']), actions: ['Load_Initial'] },
        Ready: { guard: and(['Ready_NotReady', 'Ready_AfterSnapshot']), actions: ['Ready_Report'] },
        BeginSetPaused: [
          { guard: and(['BeginSetPaused_Ready', 'BeginSetPaused_CallsLeft', 'SetPaused_PublishAfterWrite']), actions: ['BeginSetPaused_Count', 'BeginSetPaused_Accept'] },
          { guard: and(['BeginSetPaused_Ready', 'BeginSetPaused_CallsLeft']), actions: ['BeginSetPaused_Count', 'BeginSetPaused_PublishEarly'] },
        ],
        CommitSetPaused: [
          { guard: and(['SetPaused_Pending', 'SetPaused_PublishAfterWrite']), actions: ['CommitSetPaused_Write', 'CommitSetPaused_Publish'] },
          { guard: 'SetPaused_Pending', actions: ['CommitSetPaused_Write'] },
        ],
        FailSetPaused: { guard: 'SetPaused_Pending', actions: ['FailSetPaused_Forget'] },
        Deliver: [
          { guard: and(['Channel_Holds', 'Deliver_Loaded', 'Deliver_VersionCheck']), actions: ['Channel_Take', 'Deliver_Hold'] },
          // Before the initial load (or an older event) the event is taken and not applied.
          { guard: 'Channel_Holds', actions: ['Channel_Take'] },
        ],
        Drop: { guard: 'Channel_Holds', actions: ['Channel_Take', 'Drop_Record'] },
        Reconcile: [
          { guard: and(['Reconcile_Loaded', 'Reconcile_ReadsValkey', 'Reconcile_ValkeyNewer']), actions: ['Reconcile_Apply', 'Reconcile_Fresh'] },
          { guard: 'Reconcile_Loaded', actions: ['Reconcile_Fresh'] },
        ],
        Tick: { guard: 'Tick_Fresh', actions: ['Tick_Age'] },
      },
    },
  },
});

export type PauseMachine = typeof pauseMachine;
