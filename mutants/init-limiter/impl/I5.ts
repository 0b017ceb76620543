// I5 Serialize_ReadsAfterAdmit: the basis served is the one peeked before the queue wait, so a
// client that waited through store updates is initialized from outdated data, and the deltas
// published meanwhile are in neither its basis nor its feed (seed: "Stale basis after queue wait").
import type { InitLimiterPatch } from '../../../src/systems/init-limiter/server/index.js';

const patch: InitLimiterPatch = {
  system: 'init-limiter',
  description: 'the basis read before the queue wait is served after it',
  parts: { Serialize_ReadsAfterAdmit: (peeked) => peeked },
};
export default patch;
