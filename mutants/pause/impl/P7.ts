// P7 (hand-written, no spec mutation point): a reconciliation restarts the age clock even when its
// MGET fails (markFresh in a finally). The walks never make a read fail; the tour's FailReconcile does.
import { PauseReplica, type PausePatch } from '../../../src/systems/pause/index.js';

class FreshOnFailure extends PauseReplica {
  protected override async sync(): Promise<void> {
    try {
      await super.sync();
    } finally {
      this.markFresh(); // also after a failed read: a stale snapshot is served again
    }
  }
}

const patch: PausePatch = { description: 'a failed reconciliation still restarts the age clock', replica: (opts) => new FreshOnFailure(opts) };
export default patch;
