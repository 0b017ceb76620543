// I8 Deadline_ThroughputFloor: the flat per-write deadline of round 2 (R2-3): every write, never
// sliced, gets now + one fixed timeout, re-armed per write and never capped. On an FDv1 put (one
// large write) that is a cap on the whole write, so a healthy client slower than payload / timeout
// is cut mid-delivery. The fixed timeout is the send timeout's old default against today's cap
// (30 s against 2 m: a quarter) — the seed raised the cap when the floor came in.
import type { InitLimiterPatch } from '../../../src/systems/init-limiter/server/index.js';

const patch: InitLimiterPatch = {
  system: 'init-limiter',
  description: 'a flat per-write deadline instead of the throughput floor and the cap',
  parts: { Deadline_ThroughputFloor: { sliceBytes: () => Number.POSITIVE_INFINITY, deadline: (_bytes, now, _begunAt, limits) => now + limits.sendTimeoutMs / 4 } },
};
export default patch;
