// I7 (the write deadline stays armed for the whole connection: a live stream is cut): see mutants/manifest.json. The spec's Kept("Deadline_ScopedToDelivery") = FALSE branch, as tla/init-limiter/mutants/I7.cfg drops it.
import type { InitLimiterOverrides } from '../../../models/init-limiter/index.js';

const overrides: InitLimiterOverrides = { guards: { Deadline_ScopedToDelivery: () => false } };
export default overrides;
