/**
 * The tour's clock: the replicas' timers (the age bound's and the reconciler's, PauseReplica's
 * `timers` option) armed on a clock the driver moves itself. A Tick is the driver moving it past
 * the age bound; the reconciler's jittered timer fires when the driver fires it. Every age the
 * tour judges is read from this clock and the driver's own record of the syncs it saw complete,
 * never from a replica's report of its own age.
 */
import type { Replica } from '../model-state.js';
import type { ReplicaTimers } from '../replica.js';

export interface ArmedTimer {
  readonly id: number;
  readonly owner: Replica;
  readonly delay: number;
  readonly due: number;
  readonly fn: () => void;
}

export class DriverClock {
  private t = 0;
  private seq = 0;
  private readonly armed = new Map<number, ArmedTimer>();

  now(): number {
    return this.t;
  }

  /** The timers a replica arms (its handle is the timer's id). */
  timersOf(owner: Replica): ReplicaTimers {
    return {
      set: (fn, ms) => {
        const id = ++this.seq;
        this.armed.set(id, { id, owner, delay: ms, due: this.t + ms, fn });
        return id;
      },
      clear: (h) => {
        if (typeof h === 'number') this.armed.delete(h);
      },
    };
  }

  /** The timers still armed by `owner`, in arming order. */
  pending(owner: Replica): ArmedTimer[] {
    return [...this.armed.values()].filter((x) => x.owner === owner);
  }

  /** Fires one armed timer now (the clock does not move): its callback runs synchronously. */
  fire(timer: ArmedTimer): void {
    if (!this.armed.delete(timer.id)) return;
    timer.fn();
  }

  /** Moves the clock by `ms`, firing every timer due by then in due order; returns those fired. */
  advance(ms: number): ArmedTimer[] {
    this.t += ms;
    const fired: ArmedTimer[] = [];
    for (;;) {
      const due = [...this.armed.values()].filter((x) => x.due <= this.t).sort((a, b) => a.due - b.due || a.id - b.id)[0];
      if (!due) return fired;
      this.armed.delete(due.id);
      fired.push(due);
      due.fn();
    }
  }
}
