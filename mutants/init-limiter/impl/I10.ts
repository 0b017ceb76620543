// I10 Shed_ClosesConnection: a shed stream is logged and left open — connected but never
// initialized, it gets live deltas with no basis instead of reconnecting with backoff.
import type { InitLimiterPatch } from '../../../src/systems/init-limiter/server/index.js';

const patch: InitLimiterPatch = {
  system: 'init-limiter',
  description: 'shedding without closing the connection',
  parts: { Shed_ClosesConnection: () => {} },
};
export default patch;
