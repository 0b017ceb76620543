// I6 (a poll's write deadline is not cleared when its handler returns: a later request on the kept-alive connection is cut): see mutants/manifest.json. The spec's Kept("Poll_ClearDeadlineOnReturn") = FALSE branch, as tla/init-limiter/mutants/I6.cfg drops it.
import type { InitLimiterOverrides } from '../../../models/init-limiter/index.js';

const overrides: InitLimiterOverrides = { guards: { Poll_ClearDeadlineOnReturn: () => false } };
export default overrides;
