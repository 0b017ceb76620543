// R1 (no WAIT for the replica): see mutants/manifest.json. The spec's Kept("Acquire_WaitReplica") = FALSE
// branch, as tla/replication/mutants/R1.cfg drops it: the primary's reply is the acknowledgement.
import type { ReplicationOverrides } from '../../../models/replication/index.js';

const overrides: ReplicationOverrides = { guards: { Acquire_WaitReplica: () => false } };
export default overrides;
