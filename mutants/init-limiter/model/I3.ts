// I3 (the serialization flight ignores the store version: a caller gets another version's basis): see mutants/manifest.json. The spec's Kept("Serialize_KeyedByVersion") = FALSE branch, as tla/init-limiter/mutants/I3.cfg drops it.
import type { InitLimiterOverrides } from '../../../models/init-limiter/index.js';

const overrides: InitLimiterOverrides = { guards: { Serialize_KeyedByVersion: () => false } };
export default overrides;
