// M1 (AcquireB drops the old-lease check): the guard AcquireB_OldLeaseFree always holds. See mutants/manifest.json.
import type { FencingOverrides } from '../../../models/fencing/index.js';

const overrides: FencingOverrides = { guards: { AcquireB_OldLeaseFree: () => true } };
export default overrides;
