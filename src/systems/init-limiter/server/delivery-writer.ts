/**
 * The delivery writer (the relay's initwrite.Writer): between the start and the end of a basis
 * delivery every write carries a write deadline on the connection — a per-write budget from the
 * throughput floor (bytes / floor + slack), capped by an absolute limit from the delivery's start.
 * A large write is sliced only so that each piece re-arms the deadline; nothing is buffered beyond
 * the piece being written. Outside a delivery it is a pass-through: live deltas and heartbeats after
 * the basis carry no deadline. The end-of-basis flush clears the deadline and closes `done`.
 */
import type { Clock } from './clock.js';
import type { Surface } from './limiter.js';
import { setWriteDeadline, WrappingWriter, type ResponseWriter } from './response.js';

export interface DeadlineLimits {
  /** The absolute cap on one delivery, from its start (the seed's INIT_SEND_TIMEOUT). */
  readonly sendTimeoutMs: number;
  /** The throughput a healthy client keeps up at least (bytes per second). */
  readonly floorBytesPerSec: number;
  /** Added to every write's budget (covers the RTT and a scheduler hiccup on tiny writes). */
  readonly slackMs: number;
  /** The largest piece one write carries. */
  readonly chunkBytes: number;
}

/** How a write is sliced and when each piece must be done (the Deadline_ThroughputFloor part). */
export interface WriteBudget {
  sliceBytes(limits: DeadlineLimits): number;
  deadline(bytes: number, now: number, begunAt: number, limits: DeadlineLimits): number;
}

/**
 * bytes / floor + slack per piece — a piece counted as one chunk at least — never past the
 * delivery's start + the cap. Why a chunk at least: a write blocked on a full socket waits not for
 * its own bytes but for the kernel to wake the writer, which Linux does only once a third of the
 * send buffer is free (up to ~1.4 MB with the default 4 MB tcp_wmem max; 1.5–1.7 MB measured on
 * loopback). A small FDv2 event charged its own bytes (2 s of slack) is then cut under a reader at
 * three times the floor; charged a chunk (16 s + slack) it waits out the burst. A stalled client is
 * still cut within one chunk's budget.
 */
export const THROUGHPUT_FLOOR: WriteBudget = {
  sliceBytes: (limits) => limits.chunkBytes,
  deadline: (bytes, now, begunAt, limits) => Math.min(now + (Math.max(bytes, limits.chunkBytes) * 1000) / limits.floorBytesPerSec + limits.slackMs, begunAt + limits.sendTimeoutMs),
};

/** What the end-of-basis flush does to the deadline (the Deadline_ScopedToDelivery part). */
export interface DeliveryScope {
  clearDeadline(): void;
  /** Later writes (live deltas, heartbeats) carry no deadline. */
  leaveDelivery(): void;
}
export type EndOfDelivery = (scope: DeliveryScope) => void;

export const SCOPED_TO_DELIVERY: EndOfDelivery = (scope) => {
  scope.clearDeadline();
  scope.leaveDelivery();
};

export interface DeliveryWriterContext {
  readonly clock: Clock;
  readonly limits: DeadlineLimits;
  readonly surface: Surface;
  readonly budget: WriteBudget;
  readonly endOfDelivery: EndOfDelivery;
  /** The last byte of a basis was written (the end-of-basis flush). */
  readonly onDeliveryComplete: () => void;
  /** Delivery writes waiting for the kernel, over every writer of the server. */
  readonly pending: { count: number };
}

export class DeliveryWriter extends WrappingWriter {
  private begunAt: number | null = null;
  private ending = false;
  private doneSignal: { promise: Promise<void>; resolve: () => void } | null = null;
  /** The deadline computed for the last piece of this delivery (null before its first write): the read-out of the test seams. */
  lastDeadline: number | null = null;

  constructor(
    inner: ResponseWriter,
    private readonly ctx: DeliveryWriterContext,
  ) {
    super(inner);
  }

  /** A basis delivery starts: writes carry deadlines from now; `deliveryDone()` is a fresh signal. */
  beginDelivery(): void {
    this.begunAt = this.ctx.clock.now();
    this.lastDeadline = null;
    this.ending = false;
    let resolve: () => void = () => {};
    const promise = new Promise<void>((r) => (resolve = r));
    this.doneSignal = { promise, resolve };
  }

  /** The delivery ends at the next end-of-batch flush. */
  endDelivery(): void {
    this.ending = true;
  }

  /** Resolves when the last byte of the basis is written; null before beginDelivery and after the flush. */
  deliveryDone(): Promise<void> | null {
    return this.doneSignal?.promise ?? null;
  }

  get inDelivery(): boolean {
    return this.begunAt !== null;
  }

  override async write(data: Buffer): Promise<boolean> {
    const begunAt = this.begunAt;
    if (begunAt === null) return this.inner.write(data);
    const slice = Math.max(1, this.ctx.budget.sliceBytes(this.ctx.limits));
    for (let off = 0; off < data.length; off += slice) {
      const piece = off === 0 && data.length <= slice ? data : data.subarray(off, off + slice);
      // A wrapper that hides the socket makes this "not supported"; the relay ignored the error.
      this.lastDeadline = this.ctx.budget.deadline(piece.length, this.ctx.clock.now(), begunAt, this.ctx.limits);
      setWriteDeadline(this.inner, this.lastDeadline, { surface: this.ctx.surface });
      this.ctx.pending.count += 1;
      const ok = await this.inner.write(piece).finally(() => (this.ctx.pending.count -= 1));
      if (!ok) return false;
    }
    return true;
  }

  override async end(data?: Buffer): Promise<boolean> {
    if (data && this.begunAt !== null) {
      if (!(await this.write(data))) return false;
      return this.inner.end();
    }
    return this.inner.end(data);
  }

  /** The end of a batch of events: the end of the delivery when endDelivery() was called. */
  flushBatch(): void {
    if (this.begunAt === null || !this.ending) return;
    this.ending = false;
    this.ctx.endOfDelivery({
      clearDeadline: () => setWriteDeadline(this.inner, null, { surface: this.ctx.surface }),
      leaveDelivery: () => {
        this.begunAt = null;
        this.lastDeadline = null;
      },
    });
    const done = this.doneSignal;
    this.doneSignal = null;
    this.ctx.onDeliveryComplete();
    done?.resolve();
  }
}
