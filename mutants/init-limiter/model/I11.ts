// I11 (an up-to-date reply is charged a slot: with none free it is shed): see mutants/manifest.json. The spec's Kept("UpToDate_NoSlot") = FALSE branch, as tla/init-limiter/mutants/I11.cfg drops it.
import type { InitLimiterOverrides } from '../../../models/init-limiter/index.js';

const overrides: InitLimiterOverrides = { guards: { UpToDate_NoSlot: () => false } };
export default overrides;
