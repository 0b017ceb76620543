// R1 at the implementation layer: the remedy Acquire_WaitReplica dropped. The pods' C client sends
// each script alone (no WAIT), so a reply is trusted as soon as the primary gives it — the scripts
// as they ship without `confirmReplicas`. The drill and its checkers do not know it runs.
import type { FailoverPatch } from '../../../src/systems/fencing/failover/patch.js';

const patch: FailoverPatch = { confirm: () => null };
export default patch;
