// P13 Read_ServesEvents: the hot read refuses a snapshot an event brought until a reconciliation
// confirms it — over-cautious, it fails closed while the snapshot is fresh.
import { PauseReplica, type PauseAnswer, type PausePatch, type PauseState } from '../../../src/systems/pause/index.js';

class WaitsForConfirmation extends PauseReplica {
  private unconfirmed = false;
  protected override applyIfNewer(e: PauseState): void {
    const before = this.held;
    super.applyIfNewer(e);
    if (this.held !== before) this.unconfirmed = true;
  }
  protected override async sync(): Promise<void> {
    await super.sync();
    this.unconfirmed = false;
  }
  override read(): PauseAnswer {
    return this.unconfirmed ? 'unavailable' : super.read();
  }
}

const patch: PausePatch = { description: 'read() refuses a snapshot an event brought until a reconciliation confirms it', replica: (opts) => new WaitsForConfirmation(opts) };
export default patch;
