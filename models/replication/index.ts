// The failover model's public API (other layers import only this).
export { candidateEvents, replicationEventLabel, REPLICATION_ACTIONS, EXPIRE_WITNESSES } from './events.js';
export type { ReplicationModelEvent, ReplicationEventType, ExpireWitness } from './events.js';
export { GUARDS, EFFECTS, REPLICATION_MUTATION_POINTS, ack } from './rules.js';
export type { ReplicationGuard, ReplicationEffect, ReplicationGuardName, ReplicationEffectName, ReplicationMutationPoint, ReplicationEnv } from './rules.js';
export { replicationMachine, replicationImplementations } from './machine.js';
export type { ReplicationMachine, ReplicationOverrides } from './machine.js';
export { replicationMachineFor, replicationSnapshotOf, replicationSuccessors } from './step.js';
export type { ReplicationSnapshot, ReplicationStep } from './step.js';
export { replicationInvariants, REPLICATION_INVARIANT_NAMES } from './invariants.js';
export type { ReplicationInvariantName, ReplicationInvariant } from './invariants.js';
