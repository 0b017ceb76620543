// P9 (hand-written): a load or reconciliation takes whatever MGET returned, without the "only if
// newer" check. A read always sees Valkey's newest state, so this only shows when the reply lands
// after a newer event was applied: the walks await every reconciliation whole; the tour's
// ReconcileOverlapped holds the reply while a SetPaused commits and its event is delivered.
import { decodeStored, PauseReplica, type PausePatch } from '../../../src/systems/pause/index.js';

class TakesAnyReply extends PauseReplica {
  protected override async sync(): Promise<void> {
    const [paused, version] = await this.commands.mget(this.opts.keys.paused, this.opts.keys.version);
    this.held = Object.freeze({ state: decodeStored(paused ?? null, version ?? null), syncedAt: this.now() }); // no version check
    this.markFresh();
  }
}

const patch: PausePatch = { description: 'a sync reply replaces the snapshot without the version check', replica: (opts) => new TakesAnyReply(opts) };
export default patch;
