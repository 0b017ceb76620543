// I7 Deadline_ScopedToDelivery: the end-of-basis flush leaves the deadline armed and the writer in
// delivery mode, so the deadline lives as long as the connection: live deltas keep arming it,
// capped at the delivery's start + the cap, and a busy stream is cut at the cap (seed round 3, C2).
import type { InitLimiterPatch } from '../../../src/systems/init-limiter/server/index.js';

const patch: InitLimiterPatch = {
  system: 'init-limiter',
  description: 'the deadline armed for the whole connection',
  parts: { Deadline_ScopedToDelivery: () => {} },
};
export default patch;
