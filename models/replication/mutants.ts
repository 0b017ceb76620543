/**
 * R1 of tla/replication/mutants/: the remedy dropped, here one guard override handed to
 * `machine.provide()` — the spec's `Kept("Acquire_WaitReplica") = FALSE` branch. The spec has two
 * configs for it, one per invariant (each checked alone with TypeOK), so two ids, one override.
 */
import type { ReplicationInvariantName } from './invariants.js';
import type { ReplicationOverrides } from './machine.js';
import type { ReplicationMutationPoint } from './rules.js';

export interface ReplicationMutant {
  /** The config's name: tla/replication/mutants/<id>.cfg. */
  readonly id: string;
  readonly target: ReplicationMutationPoint;
  readonly expected: ReplicationInvariantName;
  readonly overrides: ReplicationOverrides;
}

// The primary's reply is the acknowledgement: no WAIT.
const noWait: ReplicationOverrides = { guards: { Acquire_WaitReplica: () => false } };

export const REPLICATION_MUTANTS: readonly ReplicationMutant[] = [
  { id: 'R1-Inv_Monotonic', target: 'Acquire_WaitReplica', expected: 'Inv_Monotonic', overrides: noWait },
  { id: 'R1-Inv_SingleAuthority', target: 'Acquire_WaitReplica', expected: 'Inv_SingleAuthority', overrides: noWait },
];
