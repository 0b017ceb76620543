// I5 (the basis read by the peek (before the queue wait) is served after admission): see mutants/manifest.json. The spec's Kept("Serialize_ReadsAfterAdmit") = FALSE branch, as tla/init-limiter/mutants/I5.cfg drops it.
import type { InitLimiterOverrides } from '../../../models/init-limiter/index.js';

const overrides: InitLimiterOverrides = { guards: { Serialize_ReadsAfterAdmit: () => false } };
export default overrides;
