// The failover model's public API (other layers import only this).
export { candidateEvents, failoverEventLabel, FAILOVER_ACTIONS, EXPIRE_WITNESSES } from './events.js';
export type { FailoverModelEvent, FailoverEventType, ExpireWitness } from './events.js';
export { GUARDS, EFFECTS, FAILOVER_MUTATION_POINTS, ack } from './rules.js';
export type { FailoverGuard, FailoverEffect, FailoverGuardName, FailoverEffectName, FailoverMutationPoint, FailoverEnv } from './rules.js';
export { failoverMachine, failoverImplementations } from './machine.js';
export type { FailoverMachine, FailoverOverrides } from './machine.js';
export { failoverMachineFor, failoverSnapshotOf, failoverSuccessors } from './step.js';
export type { FailoverSnapshot, FailoverStep } from './step.js';
export { failoverInvariants, FAILOVER_INVARIANT_NAMES } from './invariants.js';
export type { FailoverInvariantName, FailoverInvariant } from './invariants.js';
