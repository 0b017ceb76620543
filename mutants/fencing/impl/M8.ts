// M8 at the implementation layer: Rollback allowed while pods are still above the target (a running downgrade).
// The same deployment gate, built without the rule Rollback_NoPodAboveTarget.
import type { ImplPatch } from '../../../src/systems/fencing/patch.js';

const patch: ImplPatch = { dropGateRules: ['Rollback_NoPodAboveTarget'] };
export default patch;
