// M2 (AcquireA drops the new-lease check): the guard AcquireA_NewLeaseFree always holds. See mutants/manifest.json.
import type { FencingOverrides } from '../../../models/fencing/index.js';

const overrides: FencingOverrides = { guards: { AcquireA_NewLeaseFree: () => true } };
export default overrides;
