/**
 * Steps of the init-limiter machine over plain InitLimiterModelState values: successors come from
 * the machine's own `transition`, enabledness from `snapshot.can`.
 */
import { twinSuccessors } from '../../src/seam/twin-step.js';
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

export interface InitLimiterStep {
  readonly event: InitLimiterModelEvent;
  readonly state: InitLimiterModelState;
}

/** Every enabled action instance of `s` and its successor, in candidateEvents order (the seam's stepper). */
export function initLimiterSuccessors(machine: InitLimiterMachine, bounds: InitLimiterBounds, s: InitLimiterModelState): InitLimiterStep[] {
  return twinSuccessors(machine, initLimiterSnapshotOf(machine, s), candidateEvents(s, bounds), 'init-limiter');
}
