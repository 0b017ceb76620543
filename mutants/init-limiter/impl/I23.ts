// I23 Serialize_KeyedByVersion: the FDv1 put's serialization keyed by its format alone — the
// version forgotten on the one-event path only (FDv2's key keeps it). An FDv1 client admitted after a
// publish joins another FDv1 client's serialization of the version before and is sent the old data
// set, its deltas following from the newer version: the delta between is lost (seed: "serializePutV1
// and serializeBasisV2 single-flight on keys that ignore the current store version").
import type { InitLimiterPatch } from '../../../src/systems/init-limiter/server/index.js';

const patch: InitLimiterPatch = {
  system: 'init-limiter',
  description: "the FDv1 put's serialization shared across store versions",
  parts: { Serialize_KeyedByVersion: (format, version) => (format === 'put' ? 'put' : `${format}@${version}`) },
};
export default patch;
