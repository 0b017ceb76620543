// The init-limiter model's public API (other layers import only this).
export { basisOf, candidateEvents, clientOf, initLimiterEventLabel, INIT_LIMITER_ACTIONS } from './events.js';
export type { InitLimiterModelEvent, InitLimiterEventType } from './events.js';
export { EFFECTS, GUARDS, INIT_LIMITER_MUTATION_POINTS, release } from './rules.js';
export type {
  InitLimiterEffect,
  InitLimiterEffectName,
  InitLimiterEnv,
  InitLimiterGuard,
  InitLimiterGuardName,
  InitLimiterMutationPoint,
} from './rules.js';
export { initLimiterImplementations, initLimiterMachine } from './machine.js';
export type { InitLimiterMachine, InitLimiterOverrides } from './machine.js';
export { initLimiterMachineFor, initLimiterSnapshotOf, initLimiterSuccessors } from './step.js';
export type { InitLimiterSnapshot, InitLimiterStep } from './step.js';
export { initLimiterInvariants, INIT_LIMITER_INVARIANT_NAMES } from './invariants.js';
export type { InitLimiterInvariant, InitLimiterInvariantName } from './invariants.js';
