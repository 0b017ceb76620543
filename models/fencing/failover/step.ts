/**
 * Steps of the replication machine over plain FailoverModelState values: successors come from
 * the machine's own `transition`, enabledness from `snapshot.can`.
 */
import { twinSuccessors } from '../../../src/seam/twin-step.js';
import type { FailoverBounds, FailoverModelState } from '../../../src/systems/fencing/failover/model-state.js';
import { candidateEvents, type FailoverModelEvent } from './events.js';
import { failoverImplementations, failoverMachine, type FailoverMachine, type FailoverOverrides } from './machine.js';

export type FailoverSnapshot = ReturnType<FailoverMachine['resolveState']>;

/** The machine for these constants with these overrides applied via provide(). */
export function failoverMachineFor(bounds: FailoverBounds, overrides?: FailoverOverrides): FailoverMachine {
  return failoverMachine.provide(failoverImplementations(bounds, overrides));
}

export function failoverSnapshotOf(machine: FailoverMachine, s: FailoverModelState): FailoverSnapshot {
  return machine.resolveState({ value: 'running', context: s });
}

export interface FailoverStep {
  readonly event: FailoverModelEvent;
  readonly state: FailoverModelState;
}

/** Every enabled action instance of `s` and its successor, in candidateEvents order (the seam's stepper). */
export function failoverSuccessors(machine: FailoverMachine, bounds: FailoverBounds, s: FailoverModelState): FailoverStep[] {
  return twinSuccessors(machine, failoverSnapshotOf(machine, s), candidateEvents(s, bounds), 'replication');
}
