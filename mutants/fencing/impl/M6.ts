// M6 at the implementation layer: Rollback into O drops the new-keyspace drain check.
// The same deployment gate, built without the rule RollbackToO_NewLeaseFree.
import type { ImplPatch } from '../../../src/systems/fencing/patch.js';

const patch: ImplPatch = { dropGateRules: ['RollbackToO_NewLeaseFree'] };
export default patch;
