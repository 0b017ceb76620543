// I13 Deadline_ThroughputFloor: the absolute cap counted from each write instead of from the
// delivery's start. Every piece's deadline is still capped — by now + the cap — so a client that
// drips just above the floor re-arms it forever and holds its slot unbounded (seed: the cap is the
// absolute limit on one delivery, from its start; the floor alone bounds only stalls).
import type { InitLimiterPatch } from '../../../src/systems/init-limiter/server/index.js';

const patch: InitLimiterPatch = {
  system: 'init-limiter',
  description: 'the send cap counted per write, not from the delivery start',
  parts: {
    Deadline_ThroughputFloor: {
      sliceBytes: (limits) => limits.chunkBytes,
      deadline: (bytes, now, _begunAt, limits) => Math.min(now + (Math.max(bytes, limits.chunkBytes) * 1000) / limits.floorBytesPerSec + limits.slackMs, now + limits.sendTimeoutMs),
    },
  },
};
export default patch;
