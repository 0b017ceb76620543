// M7 (rollback into O drops the reverse max-merge requirement): the guard RollbackToO_ReverseMerged always holds. See mutants/manifest.json.
import type { FencingOverrides } from '../../../models/fencing/index.js';

const overrides: FencingOverrides = { guards: { RollbackToO_ReverseMerged: () => true } };
export default overrides;
