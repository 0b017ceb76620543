/**
 * Keyed single flight: callers asking for the same key share one call instead of running it again
 * — the peek (one store read per basis) and the serialization (one payload per store version). The
 * key decides who shares, which is exactly where two of the seed's bugs lived (a peek keyed by a
 * fixed string, a serialization that ignored the version).
 *
 * As in the spec (tla/init-limiter: "joins the flight of its key while a caller of it still
 * waits"), a flight stays joinable until its last caller has taken the result — through its return
 * point, a hold point the harness may park it at. In production nothing parks: every caller takes
 * the result in the same turn of the event loop, and this is Go's singleflight.
 */
export class SingleFlight<T> {
  private readonly inFlight = new Map<string, { readonly value: Promise<T>; waiting: number }>();
  /** Calls run (not joined) since start. */
  runs = 0;
  /** Calls that joined one in flight. */
  joins = 0;

  /** The result of `key`'s flight (started with `start` if none is joinable), after `onReturn`. */
  async do(key: string, start: () => T | Promise<T>, onReturn: (value: T) => Promise<void> | undefined = () => undefined): Promise<T> {
    let f = this.inFlight.get(key);
    if (f) this.joins += 1;
    else {
      this.runs += 1;
      // Read (or serialize) now, as the flight starts: a joiner gets this result.
      f = { value: (async () => start())(), waiting: 0 };
      this.inFlight.set(key, f);
    }
    const flight = f;
    flight.waiting += 1;
    try {
      const v = await flight.value;
      const p = onReturn(v);
      if (p) await p;
      return v;
    } finally {
      flight.waiting -= 1;
      if (flight.waiting === 0 && this.inFlight.get(key) === flight) this.inFlight.delete(key);
    }
  }

  get size(): number {
    return this.inFlight.size;
  }
}
