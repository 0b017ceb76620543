/**
 * What a check needs around it: the server's limits read from /metrics, time that passes (the
 * manual clock advanced over /_control, or real time), the clients it opened (all closed after),
 * and small waits on the server's state read from outside.
 */
import type { ControlClient } from './control-client.js';
import { KeptAliveConnection, pollOnce, type PollReply } from './poll-client.js';
import { readMetrics, type MetricsSample } from './metrics-reader.js';
import { StreamClient, type Drained, type StreamOpenOptions } from './stream-client.js';

export interface ServerLimits {
  readonly enabled: boolean;
  readonly maxConcurrent: number;
  readonly maxQueued: number;
  readonly sendTimeoutMs: number;
  readonly floorBytesPerSec: number;
  readonly slackMs: number;
  readonly chunkBytes: number;
  readonly manualClock: boolean;
  /** Bytes of the store's values: about the size of a full basis. */
  readonly valueBytes: number;
}

export function limitsOf(m: MetricsSample): ServerLimits {
  return {
    enabled: m.value('initlimiter_enabled') === 1,
    maxConcurrent: m.value('initlimiter_slots_max'),
    maxQueued: m.value('initlimiter_queue_max'),
    sendTimeoutMs: m.value('initlimiter_send_timeout_ms'),
    floorBytesPerSec: m.value('initlimiter_floor_bytes_per_second'),
    slackMs: m.value('initlimiter_slack_ms'),
    chunkBytes: m.value('initlimiter_chunk_bytes'),
    manualClock: m.get('initlimiter_clock_manual') === 1,
    valueBytes: m.value('initlimiter_store_value_bytes'),
  };
}

/** The deadline budget of one full piece (a chunk: bytes / floor + slack), before the cap. */
export function chunkBudgetMs(l: ServerLimits): number {
  return (l.chunkBytes * 1000) / l.floorBytesPerSec + l.slackMs;
}

export interface CheckRunOptions {
  /**
   * Whether a wait for bytes that may never come ends on the server's view (`drained`, default
   * true); false runs every such wait out to its real-time timeout, as against a server without the
   * read-out (the bench compares the two).
   */
  readonly askServer?: boolean;
}

export class CheckRun {
  private readonly streams: StreamClient[] = [];
  private readonly conns: KeptAliveConnection[] = [];
  private readonly cleanups: Array<() => Promise<unknown> | unknown> = [];

  private constructor(
    readonly url: string,
    readonly control: ControlClient | null,
    readonly limits: ServerLimits,
    private readonly askServer: boolean,
  ) {}

  static async open(url: string, control: ControlClient | null, o: CheckRunOptions = {}): Promise<CheckRun> {
    return new CheckRun(url, control, limitsOf(await readMetrics(url)), o.askServer ?? true);
  }

  /** Time passes on the server's clock: advanced when it is manual, waited for when real. The cuts it caused. */
  async pass(ms: number): Promise<number> {
    if (this.control && this.limits.manualClock) return (await this.control.advance(ms)).cuts;
    const before = (await this.metrics()).sum('initlimiter_cut_total');
    await new Promise((r) => setTimeout(r, ms));
    return (await this.metrics()).sum('initlimiter_cut_total') - before;
  }

  metrics(): Promise<MetricsSample> {
    return readMetrics(this.url);
  }

  /** Polls /metrics until `pred` holds; throws naming `what` after `timeoutMs`. */
  async until(what: string, pred: (m: MetricsSample) => boolean, timeoutMs = 5_000): Promise<MetricsSample> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const m = await this.metrics();
      if (pred(m)) return m;
      if (Date.now() > end) throw new Error(`the server never showed ${what} in ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  /**
   * For a stream opened as `client`: whether it holds the server's whole answer so far, read from
   * the server's own view (/_control/clients) — its replay over (shed, up to date, sent or given
   * up), no delivery under way, no byte left in the server's socket, every byte the kernel took read
   * by the client, and a connection the server closed seen closed. Until a publish or the clock
   * moves, nothing more comes: a wait for more ends then instead of at its real-time timeout. None
   * without the control endpoint (the waits then run out their time).
   */
  drained(client: string): Drained | undefined {
    const control = this.control;
    if (!control || !this.askServer) return undefined;
    return async (s) => {
      const v = (await control.clients()).clients.find((c) => c.client === client && c.kind === 'stream');
      if (!v) return false;
      return v.replayDone && !v.inDelivery && v.pendingBytes === 0 && v.kernelBytes === s.rawBytes && (v.open || s.isClosed);
    };
  }

  async stream(o: StreamOpenOptions = {}): Promise<StreamClient> {
    const s = await StreamClient.open(this.url, o);
    this.streams.push(s);
    return s;
  }

  async connection(): Promise<KeptAliveConnection> {
    const c = await KeptAliveConnection.open(this.url);
    this.conns.push(c);
    return c;
  }

  poll(path: string): Promise<PollReply> {
    return pollOnce(this.url, path);
  }

  ctl(): ControlClient {
    if (!this.control) throw new Error('this check needs the control endpoint');
    return this.control;
  }

  /** Runs at the end, before the clients are closed (a hold released, say). */
  onEnd(fn: () => Promise<unknown> | unknown): void {
    this.cleanups.push(fn);
  }

  async close(): Promise<void> {
    for (const fn of this.cleanups.reverse()) await Promise.resolve(fn()).catch(() => {});
    for (const s of this.streams) s.disconnect();
    for (const c of this.conns) c.close();
  }
}
