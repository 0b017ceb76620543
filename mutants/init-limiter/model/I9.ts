// I9 (an idle timeout in the send loop abandons a partly sent basis on an open connection; the next delta completes it): see mutants/manifest.json. The spec's Kept("Stream_NoIdleTimeout") = FALSE branch, as tla/init-limiter/mutants/I9.cfg drops it.
import type { InitLimiterOverrides } from '../../../models/init-limiter/index.js';

const overrides: InitLimiterOverrides = { guards: { Stream_NoIdleTimeout: () => false } };
export default overrides;
