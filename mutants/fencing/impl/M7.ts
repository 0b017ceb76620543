// M7 at the implementation layer: Rollback into O drops the reverse max-merge requirement.
// The same deployment gate, built without the rule RollbackToO_ReverseMerged.
import type { ImplPatch } from '../../../src/systems/fencing/patch.js';

const patch: ImplPatch = { dropGateRules: ['RollbackToO_ReverseMerged'] };
export default patch;
