// I17 (the write deadline armed with the limiter disabled: a default deployment cuts slow clients): see mutants/manifest.json. The spec's Kept("Deadline_OnlyWhenEnabled") = FALSE branch, as tla/init-limiter/mutants/I17.cfg drops it (with LimiterOn = FALSE).
import type { InitLimiterOverrides } from '../../../models/init-limiter/index.js';

const overrides: InitLimiterOverrides = { guards: { Deadline_OnlyWhenEnabled: () => false } };
export default overrides;
