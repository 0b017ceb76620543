// I12 (the deadline never reaches the socket (a writer wrapper hides it): a stalled send is never cut): see mutants/manifest.json. The spec's Kept("Deadline_ReachesSocket") = FALSE branch, as tla/init-limiter/mutants/I12.cfg drops it.
import type { InitLimiterOverrides } from '../../../models/init-limiter/index.js';

const overrides: InitLimiterOverrides = { guards: { Deadline_ReachesSocket: () => false } };
export default overrides;
