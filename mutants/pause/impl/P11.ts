// P11 (hand-written): the start sequence records its load as done before the MGET answers. When
// the initial load fails, start() again (the documented retry) skips the load and reports ready
// with no snapshot. The walks never fail a load; the tour's FailLoad does, and only a read-back of
// where the replica's start-up waits (its ready gate, not its load gate) tells that state apart.
import { PauseReplica, type PausePatch } from '../../../src/systems/pause/index.js';
import type { StartPhase } from '../../../src/systems/pause/replica.js';

class LoadMarkedBeforeItAnswers extends PauseReplica {
  private loadBegun = false;
  protected override async phase(p: StartPhase): Promise<void> {
    if (p === 'load' && this.loadBegun) return; // "already loaded"
    if (p === 'load') this.loadBegun = true; // set before the read: a failed read counts as done
    return super.phase(p);
  }
}

const patch: PausePatch = { description: 'a failed initial load counts as done: start() again skips to ready', replica: (opts) => new LoadMarkedBeforeItAnswers(opts) };
export default patch;
