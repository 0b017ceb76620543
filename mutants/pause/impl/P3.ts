// P3 Reconcile_ReadsValkey: the reconciler marks the snapshot fresh without reading Valkey.
import { PauseReplica, type PausePatch } from '../../../src/systems/pause/index.js';

class NoReconcileRead extends PauseReplica {
  protected override async reconcile(): Promise<void> {
    const h = this.held;
    if (h !== null) this.held = Object.freeze({ state: h.state, syncedAt: this.now() }); // no MGET
    this.markFresh();
  }
}

const patch: PausePatch = { description: 'reconcile without MGET', replica: (opts) => new NoReconcileRead(opts) };
export default patch;
