/**
 * The spec's invariants (tla/pause/PauseSnapshot.tla), checked on the real system only: the
 * replicas' status()/read() answers, Valkey's keys, the messages the subscribers really received,
 * the real subscription count. What the checkers remember is what they observed themselves — the
 * value Valkey held at each version (read after every step; writes are sequential), the highest
 * version each replica ever reported, and Valkey's version when the driver saw a load or
 * reconciliation of a replica complete. No checker reads the model or which patch is active.
 *
 * The bug that turns each one red: NoRevert — an event applied without the version check;
 * OnlyCommitted — a publish or local update before EXEC, then a failed EXEC; FailClosed — read()
 * ignoring the age flag, or an event that restarts the age clock; ReadyAfterSnapshot — ready before the initial load; ReconcileFresh — a
 * reconciliation that does not read Valkey; NoMissedEvent — loading before subscribing.
 */
import type { Replica } from '../model-state.js';
import type { PauseState } from '../keys.js';
import type { RealView } from './observe.js';

export const REAL_INVARIANTS = ['Inv_NoRevert', 'Inv_OnlyCommitted', 'Inv_FailClosed', 'Inv_ReadyAfterSnapshot', 'Inv_ReconcileFresh', 'Inv_NoMissedEvent'] as const;
export type RealInvariant = (typeof REAL_INVARIANTS)[number];

export interface Violation {
  readonly invariant: RealInvariant;
  readonly message: string;
}

export interface CheckerOptions {
  readonly maxAgeMs: number;
  /** Clock granularity tolerated before a served answer past the bound counts (the flag's timer has run: see observe). */
  readonly failClosedSlackMs: number;
}

const show = (s: PauseState): string => `${s.paused ? 'paused' : 'running'}@v${s.version}`;

export class RealCheckers {
  /** Valkey's value at each version, as read after every step. */
  private readonly history = new Map<number, boolean>([[0, false]]);
  private readonly highest = new Map<Replica, number>();
  private readonly synced = new Map<Replica, number>();
  /** When the driver saw r's last load or reconciliation complete (its own clock, not the replica's). */
  private readonly syncedTime = new Map<Replica, number>();

  constructor(private readonly opts: CheckerOptions) {}

  /**
   * The driver saw r's load or reconciliation complete at `at` (performance.now(), taken as the step
   * returned); `view` was taken right after it.
   */
  syncedAt(r: Replica, view: RealView, at: number): void {
    this.synced.set(r, view.valkey.version);
    this.syncedTime.set(r, at);
  }

  /** Every invariant that the real system breaks in this view (empty: all hold). */
  check(view: RealView): Violation[] {
    const v = view.valkey;
    if (!this.history.has(v.version)) this.history.set(v.version, v.paused);
    const out: Violation[] = [];
    const fired = (invariant: RealInvariant, message: string) => out.push({ invariant, message });
    const committed = (s: PauseState) => s.version <= v.version && this.history.get(s.version) === s.paused;
    const entries = Object.entries(view.replicas) as [Replica, RealView['replicas'][Replica]][];
    let ready = 0;
    for (const [r, x] of entries) {
      const { status } = x;
      const held = status.version === null ? null : { paused: status.paused!, version: status.version };
      const top = this.highest.get(r) ?? -1;
      if (held && held.version < top) fired('Inv_NoRevert', `${r} holds v${held.version} after it held v${top}`);
      if (held) this.highest.set(r, Math.max(top, held.version));
      if (held && !committed(held)) fired('Inv_OnlyCommitted', `${r} exposes ${show(held)}, which Valkey never committed (Valkey is at ${show(v)})`);
      const bogus = x.received.find((e) => !committed(e));
      if (bogus) fired('Inv_OnlyCommitted', `${r} received the event ${show(bogus)}, which Valkey never committed (Valkey is at ${show(v)})`);
      // The age by the driver's clock: the sync really completed before the driver saw it, so this is
      // never more than the true age — and it does not trust the replica's own age report.
      const seen = this.syncedTime.get(r);
      const age = seen === undefined ? null : view.takenAt - seen;
      if (status.ready && held && age !== null && age > this.opts.maxAgeMs + this.opts.failClosedSlackMs && x.answer !== 'unavailable')
        fired('Inv_FailClosed', `${r} answered '${x.answer}' from a snapshot more than ${Math.round(age)} ms old (bound ${this.opts.maxAgeMs} ms)`);
      if (status.ready) {
        ready++;
        if (!held) fired('Inv_ReadyAfterSnapshot', `${r} reports ready without a snapshot`);
      }
      const s = this.synced.get(r);
      if (held && s !== undefined && held.version < s) fired('Inv_ReconcileFresh', `${r} holds v${held.version} after a sync that read v${s} from Valkey`);
      if (status.ready && held) {
        for (let k = held.version + 1; k <= v.version; k++) {
          if (!x.received.some((e) => e.version === k)) {
            fired('Inv_NoMissedEvent', `${r} is ready at v${held.version} and never received the event of v${k} (Valkey is at v${v.version})`);
            break;
          }
        }
      }
    }
    if (ready > view.subscriptions) fired('Inv_ReadyAfterSnapshot', `${ready} replica(s) report ready, ${view.subscriptions} connection(s) are subscribed to the channel`);
    return out;
  }
}
