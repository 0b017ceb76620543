/**
 * Steps of the replication machine over plain ReplicationModelState values: successors come from
 * the machine's own `transition`, enabledness from `snapshot.can`.
 */
import { inertScope as sharedInertScope } from '../inert-scope.js';
import type { ReplicationBounds, ReplicationModelState } from '../../src/replication/model-state.js';
import { candidateEvents, type ReplicationModelEvent } from './events.js';
import { replicationImplementations, replicationMachine, type ReplicationMachine, type ReplicationOverrides } from './machine.js';

export type ReplicationSnapshot = ReturnType<ReplicationMachine['resolveState']>;

/** The machine for these constants with these overrides applied via provide(). */
export function replicationMachineFor(bounds: ReplicationBounds, overrides?: ReplicationOverrides): ReplicationMachine {
  return replicationMachine.provide(replicationImplementations(bounds, overrides));
}

export function replicationSnapshotOf(machine: ReplicationMachine, s: ReplicationModelState): ReplicationSnapshot {
  return machine.resolveState({ value: 'running', context: s });
}

const inertScope = sharedInertScope<Parameters<ReplicationMachine['transition']>[2]>('replication-model');

export interface ReplicationStep {
  readonly event: ReplicationModelEvent;
  readonly state: ReplicationModelState;
}

/** Every enabled action instance of `s` and its successor, in candidateEvents order. */
export function replicationSuccessors(machine: ReplicationMachine, bounds: ReplicationBounds, s: ReplicationModelState): ReplicationStep[] {
  const snap = replicationSnapshotOf(machine, s);
  const out: ReplicationStep[] = [];
  for (const event of candidateEvents(s, bounds)) {
    if (!snap.can(event)) continue;
    const next = machine.transition(snap, event, inertScope);
    // xstate hands back the very snapshot when it selects no transition: `can` and `transition` disagreed.
    if (next === snap) throw new Error(`replication machine: can() admits ${event.type} where transition() selects nothing`);
    out.push({ event, state: next.context });
  }
  return out;
}
