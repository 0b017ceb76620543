// M9 at the implementation layer: EnterCompatible without the fleet fully on C.
// The same deployment gate, built without the rule EnterCompatible_FleetOnC.
import type { ImplPatch } from '../../../src/systems/fencing/patch.js';

const patch: ImplPatch = { dropGateRules: ['EnterCompatible_FleetOnC'] };
export default patch;
