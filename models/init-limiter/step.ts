/**
 * Steps of the init-limiter machine over plain InitLimiterModelState values: successors come from
 * the machine's own `transition`, enabledness from `snapshot.can`.
 */
import { inertScope as sharedInertScope } from '../../src/seam/xstate-scope.js';
import type { InitLimiterBounds, InitLimiterModelState } from '../../src/systems/init-limiter/model-state.js';
import { candidateEvents, type InitLimiterModelEvent } from './events.js';
import { initLimiterImplementations, initLimiterMachine, type InitLimiterMachine, type InitLimiterOverrides } from './machine.js';

export type InitLimiterSnapshot = ReturnType<InitLimiterMachine['resolveState']>;

/** The machine for these constants with these overrides applied via provide(). */
export function initLimiterMachineFor(bounds: InitLimiterBounds, overrides?: InitLimiterOverrides): InitLimiterMachine {
  return initLimiterMachine.provide(initLimiterImplementations(bounds, overrides));
}

export function initLimiterSnapshotOf(machine: InitLimiterMachine, s: InitLimiterModelState): InitLimiterSnapshot {
  return machine.resolveState({ value: 'running', context: s });
}

const inertScope = sharedInertScope<Parameters<InitLimiterMachine['transition']>[2]>('init-limiter-model');

export interface InitLimiterStep {
  readonly event: InitLimiterModelEvent;
  readonly state: InitLimiterModelState;
}

/** Every enabled action instance of `s` and its successor, in candidateEvents order. */
export function initLimiterSuccessors(machine: InitLimiterMachine, bounds: InitLimiterBounds, s: InitLimiterModelState): InitLimiterStep[] {
  const snap = initLimiterSnapshotOf(machine, s);
  const out: InitLimiterStep[] = [];
  for (const event of candidateEvents(s, bounds)) {
    if (!snap.can(event)) continue;
    const next = machine.transition(snap, event, inertScope);
    // xstate hands back the very snapshot when it selects no transition: `can` and `transition` disagreed.
    if (next === snap) throw new Error(`init-limiter machine: can() admits ${event.type} where transition() selects nothing`);
    out.push({ event, state: next.context });
  }
  return out;
}
