// P6 Subscribe_BeforeLoad: the replica loads its initial snapshot first and subscribes afterwards
// (the seed's original missed-event window).
import { PauseReplica, type PausePatch } from '../../../src/systems/pause/index.js';

class LoadThenSubscribe extends PauseReplica {
  protected override async startSequence(): Promise<void> {
    await this.phase('load');
    await this.phase('subscribe');
    await this.phase('ready');
  }
}

const patch: PausePatch = { description: 'load before subscribing', replica: (opts) => new LoadThenSubscribe(opts) };
export default patch;
