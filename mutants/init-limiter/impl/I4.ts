// I4 Peek_KeyedByBasis: the peek flight is keyed by a fixed string, so a client at the current
// basis can join an older read taken before its basis existed and fail the up-to-date check
// against it (seed: "the peek() single flight keyed by a fixed string").
import type { InitLimiterPatch } from '../../../src/systems/init-limiter/server/index.js';

const patch: InitLimiterPatch = {
  system: 'init-limiter',
  description: 'the peek flight keyed by a fixed key',
  parts: { Peek_KeyedByBasis: () => 'peek' },
};
export default patch;
