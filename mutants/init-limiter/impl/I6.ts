// I6 Poll_ClearDeadlineOnReturn: a gated poll leaves its write deadline on the connection when the
// handler returns; a later request on the same kept-alive connection is cut by it (seed: "Write
// deadline not cleared").
import type { InitLimiterPatch } from '../../../src/systems/init-limiter/server/index.js';

const patch: InitLimiterPatch = {
  system: 'init-limiter',
  description: 'the poll deadline is never cleared',
  parts: { Poll_ClearDeadlineOnReturn: () => {} },
};
export default patch;
