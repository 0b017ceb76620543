// I10 (a shed stream is left open, uninitialized): see mutants/manifest.json. The spec's Kept("Shed_ClosesConnection") = FALSE branch, as tla/init-limiter/mutants/I10.cfg drops it.
import type { InitLimiterOverrides } from '../../../models/init-limiter/index.js';

const overrides: InitLimiterOverrides = { guards: { Shed_ClosesConnection: () => false } };
export default overrides;
