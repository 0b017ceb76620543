// I8 (a flat per-write deadline instead of the per-chunk floor: a steady reader of a large write is cut): see mutants/manifest.json. The spec's Kept("Deadline_ThroughputFloor") = FALSE branch, as tla/init-limiter/mutants/I8.cfg drops it.
import type { InitLimiterOverrides } from '../../../models/init-limiter/index.js';

const overrides: InitLimiterOverrides = { guards: { Deadline_ThroughputFloor: () => false } };
export default overrides;
