// R1 (no WAIT for the replica): see mutants/manifest.json. The spec's Kept("Acquire_WaitReplica") = FALSE
// branch, as tla/fencing/failover/mutants/R1.cfg drops it: the primary's reply is the acknowledgement.
import type { FailoverOverrides } from '../../../models/fencing/failover/index.js';

const overrides: FailoverOverrides = { guards: { Acquire_WaitReplica: () => false } };
export default overrides;
