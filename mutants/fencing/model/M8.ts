// M8 (rollback allowed past a running downgrade): the guard Rollback_NoPodAboveTarget always holds. See mutants/manifest.json.
import type { FencingOverrides } from '../../../models/fencing/index.js';

const overrides: FencingOverrides = { guards: { Rollback_NoPodAboveTarget: () => true } };
export default overrides;
