// I16 Serialize_KeyedByVersion: the serialization flight keyed by the store version alone. An FDv1
// client (/all, one put event) admitted while an FDv2 client's serialization of the same version is
// in flight joins it and is sent FDv2 events it cannot read — or the FDv2 client gets the put (seed:
// "serializePutV1 and serializeBasisV2 single-flight" on keys of their own; the per-format key).
import type { InitLimiterPatch } from '../../../src/systems/init-limiter/server/index.js';

const patch: InitLimiterPatch = {
  system: 'init-limiter',
  description: 'the serialization key ignores the format',
  parts: { Serialize_KeyedByVersion: (_format, version) => `@${version}` },
};
export default patch;
