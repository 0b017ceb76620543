/**
 * Hold points: named places in the server where a race is decided, each just before the effect of
 * one action of the spec (tla/init-limiter/README.md: Decide, Admit, Handoff, CaptureDone) or at a
 * moment a check waits for. With the test seams on, every arrival is counted — in total and per
 * client (a request names its client in the x-client-id header) — and the harness can arm a point
 * to park the next N arrivals (of one client, or of any) until it releases them: so any
 * interleaving the model has (a peek in flight while another client connects, the end-of-basis
 * flush before the release select, a queue wait across a publish) is forced over real HTTP,
 * deterministically. An unarmed point returns synchronously (no await: the code path is the one
 * production runs); a parked arrival also goes on when its connection closes. With the seams off
 * every point is a no-op.
 */

/** Every hold point, in the order a delivery meets them. docs/init-limiter.md says what each is. */
export const HOLD_POINTS = [
  'peek.enter', // a stream asks for its basis's peek (before joining or starting the flight)
  'peek.return', // Decide(c): the peek returned to c, before the up-to-date check and the acquire
  'queue.enter', // a full delivery found no free slot and waits in the queue
  'queue.admit', // Admit(c): a waiter woken by a freed slot, before it takes it
  'serialize.enter', // an admitted stream asks for its version's serialization (before joining or starting it)
  'serialize.return', // Handoff(c): the serialization returned to c, before the hand-over and the deadline
  'send.begin', // the deadline is armed, nothing handed to the writer yet
  'basis.closeBatch', // CaptureDone's window: the batch is closed, the release select not entered
  'basis.flushed', // the end-of-basis flush: the last byte of the basis written
  'slot.released', // a slot was given back
  'stream.live', // a stream entered its live phase (deltas and heartbeats)
  'poll.admitted', // a gated poll holds its slot; its body is not written yet
  'poll.returned', // a poll handler returned (its deadline cleared unless a patch says otherwise)
] as const;
export type HoldPoint = (typeof HOLD_POINTS)[number];

/** Points whose arrivals are counted (to wait for) but that cannot park: nothing awaits them. */
export const COUNT_ONLY_POINTS: ReadonlySet<HoldPoint> = new Set<HoldPoint>(['queue.enter', 'basis.flushed', 'slot.released', 'stream.live', 'poll.returned']);

export function isHoldPoint(x: unknown): x is HoldPoint {
  return typeof x === 'string' && (HOLD_POINTS as readonly string[]).includes(x);
}

/** A client id as a request names it (x-client-id): a short token. */
export function isClientId(x: unknown): x is string {
  return typeof x === 'string' && /^[A-Za-z0-9._-]{1,64}$/.test(x);
}

export interface PointState {
  readonly point: HoldPoint;
  /** The client these counts are of (null: every client). */
  readonly client: string | null;
  /** Arrivals since the server started. */
  readonly arrivals: number;
  /** Arrivals parked now. */
  readonly parked: number;
  /** Arrivals still to be parked (armed): of this client, or of any client when client is null. */
  readonly armed: number;
}

export interface Seams {
  readonly enabled: boolean;
  /**
   * An arrival of `client` at `point`: undefined (go on) unless the point is armed for it, then a
   * promise that resolves when the harness releases it or `gone` resolves (its connection closed).
   */
  at(point: HoldPoint, client?: string | null, gone?: Promise<unknown>): Promise<void> | undefined;
}

/** Production: nothing is counted, nothing parks. */
export const NO_SEAMS: Seams = { enabled: false, at: () => undefined };

interface Parked {
  readonly client: string | null;
  readonly go: () => void;
}

interface Waiter {
  readonly ready: () => boolean;
  readonly resolve: () => void;
}

const ANY = '';

export class HoldPoints implements Seams {
  readonly enabled = true;
  /** `${point}|${client}` → count; client '' is the total. */
  private readonly arrivals = new Map<string, number>();
  /** `${point}|${client}` → armed count; client '' is armed for any client. */
  private readonly armed = new Map<string, number>();
  private readonly parked = new Map<HoldPoint, Parked[]>();
  private waiters: Waiter[] = [];

  at(point: HoldPoint, client: string | null = null, gone?: Promise<unknown>): Promise<void> | undefined {
    this.bump(this.arrivals, point, ANY, 1);
    if (client !== null) this.bump(this.arrivals, point, client, 1);
    const own = client !== null && (this.armed.get(`${point}|${client}`) ?? 0) > 0;
    const any = !own && (this.armed.get(`${point}|${ANY}`) ?? 0) > 0;
    let parkedHere: Promise<void> | undefined;
    if (own || any) {
      this.bump(this.armed, point, own ? client! : ANY, -1);
      parkedHere = new Promise<void>((resolve) => {
        const entry: Parked = { client, go: resolve };
        const list = this.parked.get(point) ?? [];
        list.push(entry);
        this.parked.set(point, list);
        void gone?.then(() => {
          const l = this.parked.get(point) ?? [];
          const i = l.indexOf(entry);
          if (i >= 0) l.splice(i, 1);
          resolve();
          this.notify();
        });
      });
    }
    this.notify();
    return parkedHere;
  }

  /** Parks the next `count` arrivals at `point` — of `client`, or of any client (added to what is armed). */
  hold(point: HoldPoint, count = 1, client: string | null = null): PointState {
    this.bump(this.armed, point, client ?? ANY, count);
    return this.state(point, client);
  }

  /**
   * Lets `count` parked arrivals (of `client`, or of any) go on, oldest first; with no count, all of
   * them, and what is armed for them is disarmed.
   */
  release(point: HoldPoint, count?: number, client: string | null = null): PointState {
    const list = this.parked.get(point) ?? [];
    const mine = list.filter((p) => client === null || p.client === client);
    const go = count === undefined ? mine : mine.slice(0, count);
    this.parked.set(
      point,
      list.filter((p) => !go.includes(p)),
    );
    if (count === undefined) this.armed.set(`${point}|${client ?? ANY}`, 0);
    for (const p of go) p.go();
    this.notify();
    return this.state(point, client);
  }

  /** Every parked arrival goes on and nothing stays armed (the server is stopping). */
  releaseAll(): void {
    this.armed.clear();
    for (const p of HOLD_POINTS) this.release(p);
  }

  state(point: HoldPoint, client: string | null = null): PointState {
    const parked = (this.parked.get(point) ?? []).filter((p) => client === null || p.client === client).length;
    return { point, client, arrivals: this.arrivals.get(`${point}|${client ?? ANY}`) ?? 0, parked, armed: this.armed.get(`${point}|${client ?? ANY}`) ?? 0 };
  }

  states(): PointState[] {
    return HOLD_POINTS.map((p) => this.state(p));
  }

  /** Resolves true once `point` (for `client`, or in total) has `arrivals` arrivals and `parked` parked; false after `timeoutMs` (real time). */
  waitFor(point: HoldPoint, want: { arrivals?: number; parked?: number }, timeoutMs: number, client: string | null = null): Promise<boolean> {
    const ready = () => {
      const s = this.state(point, client);
      return s.arrivals >= (want.arrivals ?? 0) && s.parked >= (want.parked ?? 0);
    };
    if (ready()) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const waiter: Waiter = {
        ready,
        resolve: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  private bump(map: Map<string, number>, point: HoldPoint, client: string, by: number): void {
    const k = `${point}|${client}`;
    map.set(k, (map.get(k) ?? 0) + by);
  }

  private notify(): void {
    const done = this.waiters.filter((w) => w.ready());
    if (done.length === 0) return;
    this.waiters = this.waiters.filter((w) => !done.includes(w));
    for (const w of done) w.resolve();
  }
}
