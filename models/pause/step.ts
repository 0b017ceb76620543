/**
 * Steps of the pause machine over plain PauseModelState values: successors come from the machine's
 * own `transition`, enabledness from `snapshot.can`, the hot read from the machine's (possibly
 * overridden) Read_FailClosed guard.
 */
import { twinSuccessors } from '../../src/seam/twin-step.js';
import type { PauseBounds, PauseModelState, Replica } from '../../src/systems/pause/model-state.js';
import { candidateEvents, type PauseModelEvent } from './events.js';
import { pauseImplementations, pauseMachine, type PauseMachine, type PauseOverrides } from './machine.js';

export type PauseSnapshot = ReturnType<PauseMachine['resolveState']>;

/** The machine for these constants with these overrides applied via provide(). */
export function pauseMachineFor(bounds: PauseBounds, overrides?: PauseOverrides): PauseMachine {
  return pauseMachine.provide(pauseImplementations(bounds, overrides));
}

export function pauseSnapshotOf(machine: PauseMachine, s: PauseModelState): PauseSnapshot {
  return machine.resolveState({ value: 'running', context: s });
}

export interface PauseStep {
  readonly event: PauseModelEvent;
  readonly state: PauseModelState;
}

/** Every enabled action instance of `s` and its successor, in candidateEvents order (the seam's stepper). */
export function pauseSuccessors(machine: PauseMachine, bounds: PauseBounds, s: PauseModelState): PauseStep[] {
  return twinSuccessors(machine, pauseSnapshotOf(machine, s), candidateEvents(s, bounds), 'pause');
}

export interface PauseAnswer {
  readonly served: boolean;
  readonly paused: boolean;
}

/** The spec's `Answer(r)`, read through the machine's Read_FailClosed implementation (so a mutant changes it). */
export function pauseAnswer(machine: PauseMachine, s: PauseModelState, r: Replica): PauseAnswer {
  const guard = (name: 'Read_FailClosed' | 'Read_ServesEvents' | 'Read_NewestSnapshot') =>
    (machine.implementations.guards[name] as (a: { context: PauseModelState; event: PauseModelEvent }) => boolean)({ context: s, event: { type: 'Read', r } });
  if (guard('Read_FailClosed')) return { served: false, paused: false };
  const snap = s.snap[r] ?? null;
  const synced = s.synced[r]!;
  if (!guard('Read_ServesEvents') && snap !== null && snap.version > synced) return { served: false, paused: false };
  // ValueAt(synced[r]): Valkey's value at the last sync's version (0: not paused).
  return { served: true, paused: guard('Read_NewestSnapshot') ? (snap?.paused ?? false) : synced === 0 ? false : s.history[synced - 1]! };
}
