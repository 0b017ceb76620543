// A small bug (Deadline_ReachesSocket): the request logger's writer loses the first live delta of a
// connection (it takes the write for its own and never forwards it). Every slot, phase and deadline
// stays the model's: only what the client receives shows it — its data set one version behind.
import { LoggingWriter } from '../../../src/systems/init-limiter/server/response.js';
import type { InitLimiterPatch } from '../../../src/systems/init-limiter/server/index.js';

class DeltaLosingWriter extends LoggingWriter {
  private lost = false;
  override write(data: Buffer): Promise<boolean> {
    if (!this.lost && data.subarray(0, 12).toString() === 'event: patch') {
      this.lost = true;
      return Promise.resolve(true);
    }
    return super.write(data);
  }
}

const patch: InitLimiterPatch = {
  system: 'init-limiter',
  description: 'the first live delta of a connection lost',
  parts: { Deadline_ReachesSocket: (inner, log, req) => new DeltaLosingWriter(inner, log, req) },
};
export default patch;
