// P12 (hand-written): a load or reconciliation decides "newer" by comparing the version text MGET
// returned with the held version's text. Right while both have as many digits — the walks' versions
// stay below 10, the main tour's all have ten digits (2^31 − 1 … 2^31 + 1) — and wrong across a
// power of ten: "1000000000" sorts before "999999999", so a reconciliation keeps the older snapshot.
// Only the tour's version-width pass (from 999,999,999) crosses one.
import { decodeStored, PauseReplica, type PausePatch } from '../../../src/systems/pause/index.js';

class ComparesVersionText extends PauseReplica {
  protected override async sync(): Promise<void> {
    const [paused, version] = await this.commands.mget(this.opts.keys.paused, this.opts.keys.version);
    const state = decodeStored(paused ?? null, version ?? null);
    const h = this.held;
    const newer = h === null || (version ?? '0') > String(h.state.version); // text, not number
    this.held = Object.freeze({ state: newer ? state : h.state, syncedAt: this.now() });
    this.markFresh();
  }
}

const patch: PausePatch = { description: 'a sync compares the version as text: wrong across a power of ten', replica: (opts) => new ComparesVersionText(opts) };
export default patch;
