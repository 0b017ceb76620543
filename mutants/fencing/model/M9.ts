// M9 (compatible entered without the fleet fully on C): the guard EnterCompatible_FleetOnC always holds. See mutants/manifest.json.
import type { FencingOverrides } from '../../../models/fencing/index.js';

const overrides: FencingOverrides = { guards: { EnterCompatible_FleetOnC: () => true } };
export default overrides;
