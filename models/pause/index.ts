// The pause snapshot model's public API (other layers import only this).
export { candidateEvents, pauseEventLabel, PAUSE_ACTIONS } from './events.js';
export type { PauseModelEvent, PauseEventType } from './events.js';
export { GUARDS, EFFECTS, PAUSE_MUTATION_POINTS, hold, publish } from './rules.js';
export type { PauseGuard, PauseEffect, PauseGuardName, PauseEffectName, PauseMutationPoint, PauseEnv } from './rules.js';
export { pauseMachine, pauseImplementations } from './machine.js';
export type { PauseMachine, PauseOverrides } from './machine.js';
export { pauseMachineFor, pauseSnapshotOf, pauseSuccessors, pauseAnswer } from './step.js';
export type { PauseSnapshot, PauseStep, PauseAnswer } from './step.js';
export { pauseInvariants, PAUSE_INVARIANT_NAMES } from './invariants.js';
export type { PauseInvariantName, PauseInvariant } from './invariants.js';
