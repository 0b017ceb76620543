// P4 Read_FailClosed: the hot read serves the snapshot whatever its age.
import { PauseReplica, type PauseAnswer, type PausePatch } from '../../../src/systems/pause/index.js';

class ServesStale extends PauseReplica {
  override read(): PauseAnswer {
    const h = this.held;
    if (!this.isReady || h === null) return 'unavailable'; // no `this.stale` check
    return h.state.paused ? 'paused' : 'running';
  }
}

const patch: PausePatch = { description: 'read() ignores the age bound', replica: (opts) => new ServesStale(opts) };
export default patch;
