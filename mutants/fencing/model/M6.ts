// M6 (rollback into O drops the new-keyspace drain check): the guard RollbackToO_NewLeaseFree always holds. See mutants/manifest.json.
import type { FencingOverrides } from '../../../models/fencing/index.js';

const overrides: FencingOverrides = { guards: { RollbackToO_NewLeaseFree: () => true } };
export default overrides;
