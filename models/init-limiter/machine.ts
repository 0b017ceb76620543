/**
 * The XState twin of tla/init-limiter/InitLimiter.tla. Context = the spec's variables
 * (InitLimiterModelState); one state node, because the "where we are" is per client (cl[c].phase),
 * not the machine's. Every action is one event; its guard is an `and` of named guards (rules.ts),
 * its effect named effects. An `IF c THEN .. ELSE ..` that picks a branch of an action becomes
 * candidate transitions of one event, the first guarded by `c`: XState takes the first whose guard
 * passes, so exactly one fires. A mutant replaces one mutation-point guard via provide() (its model
 * patch, mutants/init-limiter/model/In.ts); effects that read a point ask env.kept, which evaluates
 * the provided guard, so the patch reaches them too.
 */
import { and, assign, not, setup } from 'xstate';
import { INIT_LIMITER_BASE_BOUNDS, initialInitLimiterState, type InitLimiterBounds, type InitLimiterModelState } from '../../src/systems/init-limiter/model-state.js';
import type { InitLimiterModelEvent } from './events.js';
import { EFFECTS, GUARDS, type InitLimiterEffect, type InitLimiterEffectName, type InitLimiterEnv, type InitLimiterGuard, type InitLimiterGuardName } from './rules.js';

/**
 * What a model patch gives: replacements for named guards (the mutants: a mutation point's Kept =
 * FALSE) or named effects (bugs no guard can express, e.g. a release that ignores the holders),
 * written over the spec's variables.
 */
export interface InitLimiterOverrides {
  readonly guards?: Partial<Record<InitLimiterGuardName, InitLimiterGuard>>;
  readonly actions?: Partial<Record<InitLimiterEffectName, InitLimiterEffect>>;
}

type XGuard = (args: { context: InitLimiterModelState; event: InitLimiterModelEvent }) => boolean;
type XAction = ReturnType<typeof assign<InitLimiterModelState, InitLimiterModelEvent, undefined, InitLimiterModelEvent, never>>;

/** The guard and action implementations for given constants and overrides (what provide() receives). */
export function initLimiterImplementations(bounds: InitLimiterBounds, overrides: InitLimiterOverrides = {}) {
  const chosen = (name: InitLimiterGuardName): InitLimiterGuard => overrides.guards?.[name] ?? GUARDS[name];
  const env: InitLimiterEnv = { bounds, kept: (point, s, ev) => chosen(point)(s, ev, env) };
  const guards = Object.fromEntries(
    (Object.keys(GUARDS) as InitLimiterGuardName[]).map((name) => {
      const g = chosen(name);
      const impl: XGuard = ({ context, event }) => g(context, event, env);
      return [name, impl];
    }),
  ) as Record<InitLimiterGuardName, XGuard>;
  const actions = Object.fromEntries(
    (Object.keys(EFFECTS) as InitLimiterEffectName[]).map((name) => {
      const e: InitLimiterEffect = overrides.actions?.[name] ?? EFFECTS[name];
      const impl: XAction = assign(({ context, event }) => e(context, event, env));
      return [name, impl];
    }),
  ) as Record<InitLimiterEffectName, XAction>;
  return { guards, actions };
}

const base = initLimiterImplementations(INIT_LIMITER_BASE_BOUNDS);

const POLL = ['Client_Off', 'Request_BasisKnown'] as const;

export const initLimiterMachine = setup({
  types: {
    context: {} as InitLimiterModelState,
    events: {} as InitLimiterModelEvent,
    input: {} as { bounds?: InitLimiterBounds } | undefined,
  },
  guards: base.guards,
  actions: base.actions,
}).createMachine({
  id: 'init-limiter',
  initial: 'running',
  context: ({ input }) => initialInitLimiterState(input?.bounds ?? INIT_LIMITER_BASE_BOUNDS),
  states: {
    running: {
      on: {
        Connect: { guard: and(['Client_Off', 'Request_BasisKnown']), actions: ['Connect_Peek'] },
        Decide: [
          { guard: and(['Decide_Peeking', 'Decide_UpToDate', 'UpToDate_NoSlot']), actions: ['Decide_Live'] },
          // The mutant charges the up-to-date reply a slot: it is taken and given back at once when free...
          { guard: and(['Decide_Peeking', 'Decide_UpToDate', 'Limiter_SlotFree']), actions: ['Decide_Live'] },
          // ...and with none free the up-to-date stream is shed.
          { guard: and(['Decide_Peeking', 'Decide_UpToDate']), actions: ['Decide_ShedUpToDate'] },
          { guard: and(['Decide_Peeking', 'Limiter_SlotFree']), actions: ['Limiter_Admit'] },
          { guard: and(['Decide_Peeking', 'Limiter_QueueRoom']), actions: ['Limiter_Enqueue'] },
          { guard: 'Decide_Peeking', actions: ['Limiter_Shed'] },
        ],
        Poll: [
          { guard: and([...POLL, 'Poll_WritesUnarmed', 'Poll_DeadlinePassed']), actions: ['Poll_CutKeptAlive'] },
          { guard: and([...POLL, 'Poll_UpToDate', 'UpToDate_NoSlot']), actions: ['Poll_Reply'] },
          { guard: and([...POLL, 'Poll_UpToDate', 'Limiter_SlotFree']), actions: ['Poll_Reply'] },
          { guard: and([...POLL, 'Poll_UpToDate']), actions: ['Poll_ShedUpToDate'] },
          { guard: and([...POLL, 'Limiter_SlotFree']), actions: ['Limiter_Admit'] },
          { guard: and([...POLL, 'Limiter_QueueRoom']), actions: ['Limiter_Enqueue'] },
          // 503: the poll's request ends, its connection unchanged.
          { guard: and([...POLL]), actions: ['Limiter_Shed'] },
        ],
        Admit: { guard: and(['Admit_Queued', 'Limiter_SlotFree']), actions: ['Admit_Dequeue', 'Limiter_Admit'] },
        Handoff: [
          { guard: and(['Handoff_Serializing', 'Stream_HoldSlotAcrossSend']), actions: ['Handoff_Begin'] },
          // The mutant releases the slot at the channel handoff, before the send.
          { guard: 'Handoff_Serializing', actions: ['Handoff_Begin', 'Handoff_ReleaseSlot'] },
        ],
        CaptureDone: { guard: 'CaptureDone_Uncaptured', actions: ['CaptureDone_Capture'] },
        Stall: { guard: 'Stall_Steady', actions: ['Stall_StopReading'] },
        // Only with the idle timeout the design removed (Stream_NoIdleTimeout dropped).
        IdleTimeout: { guard: and(['IdleTimeout_StalledPartly', not('Stream_NoIdleTimeout')]), actions: ['IdleTimeout_Abandon'] },
        Disconnect: { guard: 'Disconnect_Connected', actions: ['Disconnect_Close'] },
        Publish: { guard: 'Publish_VersionsLeft', actions: ['Publish_Delta'] },
        Tick: { guard: 'Tick_Armed', actions: ['Tick_Elapse'] },
      },
    },
  },
});

export type InitLimiterMachine = typeof initLimiterMachine;
