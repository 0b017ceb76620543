/**
 * A streaming client on its own socket, reading exactly as told: at full speed, a set number of
 * bytes at a time (a steady reader, paced by a Pacer), not at all (a stall: it stops reading, the
 * kernel's buffers fill and the server's write really blocks), or gone mid-send (a disconnect).
 *
 * Node cannot set SO_RCVBUF/SO_SNDBUF on a TCP socket (only dgram sockets have setRecvBufferSize;
 * nodejs/node#65022 is still open), so a stall blocks the server only once the payload outgrows
 * what the kernel buffers absorb — kernel-buffers.ts says how much that is on this machine.
 */
import type { Socket } from 'node:net';
import { getRequest, openSocket, ResponseParser, type ResponseHead } from './http-wire.js';
import type { Pacer } from './pacer.js';
import { SseParser, viewOf, type SseEvent, type StreamView } from './sse.js';

export interface StreamOpenOptions {
  /** '/sdk/stream' (FDv2, default) or '/all' (FDv1). */
  readonly path?: string;
  /** The client's basis (?basis=N); none for a first connect. */
  readonly basis?: number | null;
  readonly headers?: Readonly<Record<string, string>>;
  /** The client's name (sent as x-client-id): the server's per-client hold points know it by it. */
  readonly client?: string;
  /** How long open() waits for the status line and headers (real ms, default 10000). */
  readonly headTimeoutMs?: number;
  /**
   * How the client reads once the head is in: 'full' (default) or 'stalled' — for a client that
   * paces or stops its reading. A client that read at full speed first has let the kernel grow its
   * receive buffer, and the sender then sees progress only in bursts of 1/16 of it (Linux opens a
   * zero window only that far): a slow reader must start slow.
   */
  readonly read?: 'full' | 'stalled';
}

export interface CloseInfo {
  /** Who closed: the server (a shed, a cut, a stop) or this client (disconnect()). */
  readonly by: 'server' | 'client';
  /** Body bytes read before the close. */
  readonly bodyBytes: number;
}

/**
 * Whether `s` holds everything the server will send it unprompted (no delivery under way, nothing
 * left in the server's socket or the kernel): asked of the server's own read-out, test seams only.
 */
export type Drained = (s: StreamClient) => Promise<boolean>;

/** How often a wait asks `drained()`: a question over HTTP, so not on every byte. */
const DRAINED_ASK_MS = 20;

type Mode = { readonly kind: 'full' } | { readonly kind: 'stalled' } | { readonly kind: 'budget'; left: number };

export class StreamClient {
  head: ResponseHead | null = null;
  readonly events: SseEvent[] = [];
  heartbeats = 0;
  /** The last readSteady ended on a step that got no byte: the server stopped sending, the stream open. */
  starved = false;
  /** Bytes read from the socket (framing included). */
  rawBytes = 0;
  /** Body bytes (chunk framing removed). */
  bodyBytes = 0;
  readonly closed: Promise<CloseInfo>;
  private closedInfo: CloseInfo | null = null;
  private byClient = false;
  private mode: Mode = { kind: 'full' };
  private readonly watchers = new Set<() => void>();
  private readonly parser: ResponseParser;
  private readonly sse: SseParser;

  private constructor(
    readonly socket: Socket,
    readonly basis: number | null,
    afterHead: Mode,
  ) {
    this.sse = new SseParser(
      (e) => this.events.push(e),
      () => (this.heartbeats += 1),
    );
    this.parser = new ResponseParser({
      head: (h) => {
        this.head = h;
        // Switched inside the read loop, so nothing past the head is read in the wrong mode.
        this.mode = afterHead;
      },
      body: (b) => {
        this.bodyBytes += b.length;
        this.sse.push(b);
      },
      end: () => {},
    });
    socket.on('readable', () => this.pump());
    socket.on('error', () => {});
    this.closed = new Promise<CloseInfo>((resolve) => {
      socket.once('close', () => {
        this.closedInfo = { by: this.byClient ? 'client' : 'server', bodyBytes: this.bodyBytes };
        this.notify();
        resolve(this.closedInfo);
      });
    });
  }

  /** Connects, sends the request and reads until the response head (then as `o.read` says). */
  static async open(baseUrl: string, o: StreamOpenOptions = {}): Promise<StreamClient> {
    const basis = o.basis ?? null;
    const path = (o.path ?? '/sdk/stream') + (basis === null ? '' : `?basis=${basis}`);
    const socket = await openSocket(baseUrl);
    const c = new StreamClient(socket, basis, o.read === 'stalled' ? { kind: 'stalled' } : { kind: 'full' });
    socket.write(getRequest(baseUrl, path, { accept: 'text/event-stream', ...(o.client ? { 'x-client-id': o.client } : {}), ...o.headers }));
    const ok = await c.waitFor(() => c.head !== null, o.headTimeoutMs ?? 10_000);
    if (!ok) {
      c.disconnect();
      throw new Error(`${baseUrl}${path}: no response head (${c.isClosed ? 'closed' : 'timed out'})`);
    }
    return c;
  }

  get isClosed(): boolean {
    return this.closedInfo !== null;
  }

  get closeInfo(): CloseInfo | null {
    return this.closedInfo;
  }

  /** The events so far, read as the client's state. */
  view(ownBasis: ReadonlyMap<string, string> | null = null): StreamView {
    return viewOf(this.events, ownBasis);
  }

  readFull(): void {
    this.mode = { kind: 'full' };
    this.pump();
  }

  /** Stops reading: what the server sends stays in the kernel's buffers until they are full. */
  stall(): void {
    this.mode = { kind: 'stalled' };
  }

  /**
   * Reads `n` more bytes (then stalls again); resolves with the bytes read — fewer if the stream
   * closed, `stop()` came to hold, `drained()` said nothing more will come, or `timeoutMs` passed.
   */
  async readBytes(n: number, timeoutMs = 10_000, stop: () => boolean = () => false, drained?: Drained): Promise<number> {
    const before = this.rawBytes;
    const mode: Mode = { kind: 'budget', left: n };
    this.mode = mode;
    this.pump();
    await this.waitFor(() => mode.left <= 0 || stop(), timeoutMs, drained);
    if (this.mode === mode) this.mode = { kind: 'stalled' };
    return this.rawBytes - before;
  }

  /**
   * A steady reader: `stepBytes` at a time, letting stepBytes / bytesPerSec pass on `pacer` after
   * each step, until `until()` holds, the stream closes, or a step gets no byte within its timeout
   * or once `drained()` says nothing more will come (the server stopped sending: `starved` is then
   * true). Resolves with the steps taken.
   */
  async readSteady(o: { bytesPerSec: number; stepBytes: number; pacer: Pacer; until: () => boolean; maxSteps?: number; stepTimeoutMs?: number; drained?: Drained }): Promise<number> {
    let steps = 0;
    this.starved = false;
    while (!o.until() && !this.isClosed && steps < (o.maxSteps ?? Number.MAX_SAFE_INTEGER)) {
      const got = await this.readBytes(o.stepBytes, o.stepTimeoutMs ?? 10_000, o.until, o.drained);
      if (o.until() || this.isClosed) break;
      if (got === 0) {
        this.starved = true;
        break;
      }
      await o.pacer.wait((o.stepBytes * 1000) / o.bytesPerSec);
      steps += 1;
    }
    return steps;
  }

  /**
   * Resolves true once `pred()` holds, false if the stream closed without it, `timeoutMs` (real)
   * passed, or — asked while waiting — `drained()` said the client holds everything the server will
   * send it unprompted (then nothing can make `pred` hold: the negative is decided, not waited out).
   */
  waitFor(pred: () => boolean, timeoutMs = 10_000, drained?: Drained): Promise<boolean> {
    if (pred()) return Promise.resolve(true);
    if (this.isClosed) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      let over = false;
      const check = () => {
        if (pred()) finish(true);
        else if (this.isClosed) finish(false);
      };
      const finish = (v: boolean) => {
        over = true;
        clearTimeout(timer);
        this.watchers.delete(check);
        resolve(v);
      };
      const timer = setTimeout(() => finish(pred()), timeoutMs);
      this.watchers.add(check);
      if (drained)
        void this.askDrained(
          drained,
          () => over,
          () => finish(pred()),
        );
    });
  }

  /** Asks `drained()` while the wait is not over; `dry()` when it says so and no byte came meanwhile. */
  private async askDrained(drained: Drained, over: () => boolean, dry: () => void): Promise<void> {
    while (!over()) {
      await new Promise((r) => setTimeout(r, DRAINED_ASK_MS));
      if (over()) return;
      const raw = this.rawBytes;
      const says = await drained(this).catch(() => false);
      if (says && !over() && this.rawBytes === raw) return dry();
    }
  }

  /** Reads at full speed until `pred()` holds (true) or the stream closes / `timeoutMs` passes (false). */
  readUntil(pred: () => boolean, timeoutMs = 10_000): Promise<boolean> {
    this.readFull();
    return this.waitFor(pred, timeoutMs);
  }

  /**
   * Reads at full speed until `pred()` holds (true), the stream closes, no byte has come for
   * `quietMs`, or `maxMs` passed (false): for a wait that must not end while bytes still flow.
   */
  async readUntilSettled(pred: () => boolean, quietMs: number, maxMs: number): Promise<boolean> {
    const end = Date.now() + maxMs;
    for (;;) {
      const before = this.rawBytes;
      if (await this.readUntil(pred, Math.min(quietMs, Math.max(0, end - Date.now())))) return true;
      if (this.isClosed || this.rawBytes === before || Date.now() >= end) return pred();
    }
  }

  /** Whether an event named `name` arrived (optionally the nth after `from`). */
  has(name: string, from = 0): boolean {
    return this.events.slice(from).some((e) => e.event === name);
  }

  /** The client goes away (mid-send or not). */
  disconnect(): void {
    this.byClient = true;
    this.socket.destroy();
  }

  private pump(): void {
    for (;;) {
      const m = this.mode;
      if (m.kind === 'stalled') return;
      const avail = this.socket.readableLength;
      if (avail === 0) {
        // Nothing buffered: read(0) asks the stream to fetch more and emit 'readable'.
        this.socket.read(0);
        return;
      }
      const want = m.kind === 'full' ? avail : Math.min(avail, m.left);
      if (want <= 0) return;
      const chunk = this.socket.read(want) as Buffer | null;
      if (!chunk) return;
      this.rawBytes += chunk.length;
      if (m.kind === 'budget') m.left -= chunk.length;
      this.parser.push(chunk);
      this.notify();
    }
  }

  private notify(): void {
    for (const w of [...this.watchers]) w();
  }
}
