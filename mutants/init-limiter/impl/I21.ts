// I21 Peek_KeyedByBasis: the peek flight keyed by whether the client has a basis, not by which one.
// A client reconnecting at the current basis joins a read started for a client with no data before
// the last publish, is not recognised as up to date, and is sent a full basis it did not need (seed:
// "Key the peek flight by basis ... only same-basis callers share a read (so they also share an
// identical up-to-date decision)"; FDv1, with no basis, keeps a flight of its own).
import type { InitLimiterPatch } from '../../../src/systems/init-limiter/server/index.js';

const patch: InitLimiterPatch = {
  system: 'init-limiter',
  description: 'the peek flight keyed by the presence of a basis, not its version',
  parts: { Peek_KeyedByBasis: (basis) => (basis === null ? 'none' : 'basis') },
};
export default patch;
