// M4 (the C-gate is dropped): the guard AdvanceToC_Gate always holds. See mutants/manifest.json.
import type { FencingOverrides } from '../../../models/fencing/index.js';

const overrides: FencingOverrides = { guards: { AdvanceToC_Gate: () => true } };
export default overrides;
