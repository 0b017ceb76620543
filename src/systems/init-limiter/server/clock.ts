/**
 * The clock the limiter's deadlines, heartbeats and timers run on. Real timers in production; with
 * the test seams on, a manual clock the harness advances over the control endpoint, so a deadline
 * fires exactly when the harness says and never because a loaded machine was slow. Either way a
 * timer that fires does the real thing (a cut destroys the socket).
 */
export interface Clock {
  readonly kind: 'real' | 'manual';
  /** Milliseconds on this clock (monotonic). */
  now(): number;
  /** Runs `fn` once `ms` from now; the returned function cancels it (idempotent). */
  setTimer(ms: number, fn: () => void): () => void;
}

/** A promise that resolves `ms` from now on `clock`, and its canceller. */
export function sleep(clock: Clock, ms: number): { readonly done: Promise<void>; readonly cancel: () => void } {
  let cancel: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    cancel = clock.setTimer(ms, resolve);
  });
  return { done, cancel };
}

export class RealClock implements Clock {
  readonly kind = 'real' as const;
  now(): number {
    return performance.now();
  }
  setTimer(ms: number, fn: () => void): () => void {
    const t = setTimeout(fn, Math.max(0, ms));
    t.unref();
    return () => clearTimeout(t);
  }
}

interface ManualTimer {
  readonly at: number;
  readonly seq: number;
  readonly fn: () => void;
  live: boolean;
}

/** Time moves only in advance(); due timers fire in order of their time (then of creation). */
export class ManualClock implements Clock {
  readonly kind = 'manual' as const;
  private t = 0;
  private seq = 0;
  private timers: ManualTimer[] = [];

  now(): number {
    return this.t;
  }

  setTimer(ms: number, fn: () => void): () => void {
    const timer: ManualTimer = { at: this.t + Math.max(0, ms), seq: this.seq++, fn, live: true };
    this.timers.push(timer);
    return () => {
      timer.live = false;
    };
  }

  /** Timers still waiting. */
  get pending(): number {
    return this.timers.filter((x) => x.live).length;
  }

  /**
   * Moves the clock `ms` forward, firing every timer that falls due on the way, each at its own time
   * (a timer a callback sets inside the window fires too). Returns how many fired.
   */
  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`cannot advance a clock by ${ms} ms`);
    const end = this.t + ms;
    let fired = 0;
    for (;;) {
      this.timers = this.timers.filter((x) => x.live);
      let next: ManualTimer | undefined;
      for (const x of this.timers) if (x.at <= end && (!next || x.at < next.at || (x.at === next.at && x.seq < next.seq))) next = x;
      if (!next) break;
      next.live = false;
      this.t = Math.max(this.t, next.at);
      fired += 1;
      next.fn();
    }
    this.t = end;
    return fired;
  }
}
