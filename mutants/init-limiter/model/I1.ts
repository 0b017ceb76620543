// I1 (the stream's slot is released at the channel handoff, before the send): see mutants/manifest.json. The spec's Kept("Stream_HoldSlotAcrossSend") = FALSE branch, as tla/init-limiter/mutants/I1.cfg drops it.
import type { InitLimiterOverrides } from '../../../models/init-limiter/index.js';

const overrides: InitLimiterOverrides = { guards: { Stream_HoldSlotAcrossSend: () => false } };
export default overrides;
