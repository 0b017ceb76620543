// M4 at the implementation layer: The C-gate is dropped: no backfill, no observed drain before advancing B → C.
// The same deployment gate, built without the rule AdvanceToC_Gate.
import type { ImplPatch } from '../../../src/systems/fencing/patch.js';

const patch: ImplPatch = { dropGateRules: ['AdvanceToC_Gate'] };
export default patch;
