// P5 Ready_AfterSnapshot: the replica reports ready once subscribed, before its initial snapshot.
import { PauseReplica, type PausePatch } from '../../../src/systems/pause/index.js';

class ReadyEarly extends PauseReplica {
  protected override async startSequence(): Promise<void> {
    await this.phase('subscribe');
    await this.phase('ready');
    await this.phase('load');
  }
}

const patch: PausePatch = { description: 'ready before the initial load', replica: (opts) => new ReadyEarly(opts) };
export default patch;
