// P14 Read_NewestSnapshot: the hot read answers the value the last load or reconciliation read;
// events (and the caller's own write) move the snapshot but not the answer until the next sync.
import { PauseReplica, type PauseAnswer, type PausePatch } from '../../../src/systems/pause/index.js';

class AnswersLastSync extends PauseReplica {
  private lastRead: boolean | null = null;
  protected override async sync(): Promise<void> {
    await super.sync();
    this.lastRead = this.held?.state.paused ?? null;
  }
  override read(): PauseAnswer {
    const a = super.read();
    if (a === 'unavailable' || this.lastRead === null) return a;
    return this.lastRead ? 'paused' : 'running';
  }
}

const patch: PausePatch = { description: 'read() answers the value the last sync read, not the newest snapshot', replica: (opts) => new AnswersLastSync(opts) };
export default patch;
