// P1 Deliver_VersionCheck: the replica applies every invalidation event, older ones included.
import { PauseReplica, type PausePatch, type PauseState } from '../../../src/systems/pause/index.js';

class NoVersionCheck extends PauseReplica {
  protected override applyIfNewer(e: PauseState): void {
    const h = this.held;
    if (h === null) return void this.counts.eventsIgnored++;
    this.held = Object.freeze({ state: e, syncedAt: h.syncedAt }); // no `e.version > held` check
    this.counts.eventsApplied++;
  }
}

const patch: PausePatch = { description: 'events apply without the version check', replica: (opts) => new NoVersionCheck(opts) };
export default patch;
