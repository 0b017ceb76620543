// I3 Serialize_KeyedByVersion: the serialize flight is keyed by the format alone, so replays that
// read different store versions join one serialization and one of them gets the other's older basis
// (seed: "Stale basis via shared serialize").
import type { InitLimiterPatch } from '../../../src/systems/init-limiter/server/index.js';

const patch: InitLimiterPatch = {
  system: 'init-limiter',
  description: 'serialization shared across store versions',
  parts: { Serialize_KeyedByVersion: (format) => format },
};
export default patch;
