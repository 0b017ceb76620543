/**
 * Steps of the replication machine over plain FailoverModelState values: successors come from
 * the machine's own `transition`, enabledness from `snapshot.can`.
 */
import { inertScope as sharedInertScope } from '../../../src/seam/xstate-scope.js';
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

const inertScope = sharedInertScope<Parameters<FailoverMachine['transition']>[2]>('replication-model');

export interface FailoverStep {
  readonly event: FailoverModelEvent;
  readonly state: FailoverModelState;
}

/** Every enabled action instance of `s` and its successor, in candidateEvents order. */
export function failoverSuccessors(machine: FailoverMachine, bounds: FailoverBounds, s: FailoverModelState): FailoverStep[] {
  const snap = failoverSnapshotOf(machine, s);
  const out: FailoverStep[] = [];
  for (const event of candidateEvents(s, bounds)) {
    if (!snap.can(event)) continue;
    const next = machine.transition(snap, event, inertScope);
    // xstate hands back the very snapshot when it selects no transition: `can` and `transition` disagreed.
    if (next === snap) throw new Error(`replication machine: can() admits ${event.type} where transition() selects nothing`);
    out.push({ event, state: next.context });
  }
  return out;
}
