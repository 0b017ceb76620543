// I2 (the producer reads the done channel after the close that clears it: the slot leaks until the client disconnects): see mutants/manifest.json. The spec's Kept("Stream_CaptureDoneBeforeClose") = FALSE branch, as tla/init-limiter/mutants/I2.cfg drops it.
import type { InitLimiterOverrides } from '../../../models/init-limiter/index.js';

const overrides: InitLimiterOverrides = { guards: { Stream_CaptureDoneBeforeClose: () => false } };
export default overrides;
