/**
 * The streaming endpoints (server-sent events): /sdk/stream (FDv2: a basis of many events, the
 * client's basis from ?basis= or the x-basis header) and /all (FDv1: one put event, always full).
 *
 * A stream starts its response at once (200 and the SSE headers), then two tasks share it, as the
 * relay's replay goroutine and eventsource handler do: the producer (replay) decides what the client
 * needs and hands the events over a rendezvous batch; the connection's writer drains the batch to
 * the socket, flushes at its end, then writes live deltas and heartbeats until the client goes away.
 *
 * The producer, limiter enabled: the store read is single-flighted per basis (peek); a client whose
 * basis is current gets the small up-to-date reply without a slot; a full basis acquires its slot
 * BEFORE serializing (shed: the connection is closed), reads the store after admission, shares the
 * serialization only with callers of the same store version, and holds the slot across the actual
 * send: released once — the last byte of the basis written, the client gone, or the write deadline
 * cutting a stalled send. Limiter disabled: peek, serialize, send — no slot, no deadline (base).
 */
import type { IncomingMessage } from 'node:http';
import { Batch } from './batch.js';
import { mark, type ClientView } from './client-views.js';
import type { DeliveryWriter } from './delivery-writer.js';
import { deliveryWriter, pass, type ServerEnv } from './env.js';
import type { InitLimiter, ReleaseReason, Surface } from './limiter.js';
import type { BaseResponseWriter, ResponseWriter } from './response.js';
import type { Snapshot } from './store.js';
import { deltaEvent, HEARTBEAT, serializeBasis, upToDateEvent, type BasisFormat, type SerializedBasis } from './wire.js';

/** One stream's connection: the batch, the writer task, the live feed. */
class StreamConnection {
  readonly batch = new Batch();
  private readonly liveQueue: Buffer[] = [];
  private live = false;
  private pumping = false;
  private unsubscribe: (() => void) | null = null;
  private cancelHeartbeat: () => void = () => {};
  private closedFlag = false;
  private shedClosed = false;
  private releaseBasis: () => void = () => {};

  constructor(
    private readonly env: ServerEnv,
    private readonly out: ResponseWriter,
    private readonly writer: DeliveryWriter | null,
    private readonly base: BaseResponseWriter,
    readonly surface: Surface,
    /** The x-client-id the request named (per-client hold points). */
    readonly client: string | null,
    /** Its read-out (test seams and a named client only). */
    readonly view: ClientView | null,
  ) {
    void out.closed.then(() => this.onClosed());
  }

  get closed(): Promise<void> {
    return this.out.closed;
  }

  get isClosed(): boolean {
    return this.closedFlag;
  }

  /** Why the connection closed: a deadline cut it, or the client (or a shed) did. */
  closeReason(): ReleaseReason {
    const s = this.base.socket;
    return s && this.env.deadlines.cutSockets.has(s) ? 'cut' : 'disconnect';
  }

  /** Ends the response and the connection (a shed stream: the client reconnects with backoff). */
  close(): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    this.shedClosed = true;
    this.batch.abort();
    void this.out.end();
    this.base.socket?.end();
  }

  /** The basis stays resident (counted) until the writer is done with it: flushed, or the connection closed. */
  holdBasis(b: SerializedBasis): void {
    this.releaseBasis();
    this.releaseBasis = this.env.resident.hold(b);
  }

  get feedStarted(): boolean {
    return this.unsubscribe !== null;
  }

  /** Live deltas after `version` follow whatever the batch sends (queued until it is flushed). */
  startFeed(version: number): void {
    if (this.unsubscribe || this.closedFlag) return;
    this.unsubscribe = this.env.store.subscribeAfter(version, (d) => this.pushLive(deltaEvent(d)));
  }

  /** The writer task: the batch, the end-of-batch flush, then the live phase. */
  async run(): Promise<void> {
    for (;;) {
      const ev = await this.batch.take();
      if (ev === null) break;
      if (!(await this.out.write(ev))) return;
    }
    this.releaseBasis();
    if (this.closedFlag) return;
    this.writer?.flushBatch();
    await pass(this.env, 'basis.flushed', this.client);
    if (this.closedFlag) return;
    this.live = true;
    // A shed stream left open goes on as a live one, uninitialized: still stranded.
    if (this.view?.phase !== 'stranded') mark(this.view, { phase: 'live' });
    this.env.streams.live += 1;
    await pass(this.env, 'stream.live', this.client);
    this.armHeartbeat();
    void this.pump();
  }

  private pushLive(ev: Buffer): void {
    this.liveQueue.push(ev);
    if (this.live) void this.pump();
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.liveQueue.length > 0 && !this.closedFlag) {
        if (!(await this.out.write(this.liveQueue.shift()!))) return;
      }
    } finally {
      this.pumping = false;
    }
  }

  private armHeartbeat(): void {
    if (this.env.heartbeatMs <= 0 || this.closedFlag) return;
    this.cancelHeartbeat = this.env.clock.setTimer(this.env.heartbeatMs, () => {
      this.pushLive(HEARTBEAT);
      this.armHeartbeat();
    });
  }

  private onClosed(): void {
    this.closedFlag = true;
    mark(this.view, { phase: 'closed' });
    this.releaseBasis();
    if (this.shedClosed) this.env.log('debug', 'shed stream closed', { surface: this.surface });
    this.batch.abort();
    this.unsubscribe?.();
    this.cancelHeartbeat();
    this.env.streams.open -= 1;
    if (this.live) this.env.streams.live -= 1;
    if (!this.shedClosed && this.closeReason() === 'disconnect') {
      this.env.metrics.count('disconnects_total', this.surface);
      this.env.log('debug', 'stream closed by the client', { surface: this.surface });
    }
  }
}

/** The store read, single-flighted by the Peek_KeyedByBasis key; returns to the client at peek.return (Decide). */
async function peek(env: ServerEnv, conn: StreamConnection, basis: number | null): Promise<Snapshot> {
  await pass(env, 'peek.enter', conn.client);
  return env.peekFlight.do(
    env.parts.Peek_KeyedByBasis(basis),
    () => env.store.snapshot(),
    (read) => {
      mark(conn.view, { pv: read.version });
      return pass(env, 'peek.return', conn.client, conn.closed);
    },
  );
}

/** The serialization, shared by the callers with the same Serialize_KeyedByVersion key; returns at serialize.return (Handoff). */
async function serialize(env: ServerEnv, conn: StreamConnection, format: BasisFormat, s: Snapshot): Promise<SerializedBasis> {
  await pass(env, 'serialize.enter', conn.client);
  return env.serializeFlight.do(
    env.parts.Serialize_KeyedByVersion(format, s.version),
    () => serializeBasis(format, s),
    (b) => {
      mark(conn.view, { sent: b.version });
      return pass(env, 'serialize.return', conn.client, conn.closed);
    },
  );
}

/** Hands every event of `b` over; false if the connection closed or the hand-over gave up. */
async function handOver(env: ServerEnv, conn: StreamConnection, b: SerializedBasis): Promise<boolean> {
  for (const ev of b.events) {
    const r = await env.parts.Stream_NoIdleTimeout(conn.batch, ev, env.clock);
    if (r !== 'taken') return false;
  }
  return true;
}

async function replyUpToDate(env: ServerEnv, conn: StreamConnection, basis: number): Promise<void> {
  env.metrics.count('up_to_date_total', conn.surface);
  await conn.batch.offer(upToDateEvent(basis)).taken;
  // Deltas after the client's own basis: none is lost even if the peek's read predates a publish.
  conn.startFeed(basis);
}

/**
 * The limiter disabled: the relay's base replay — the peek serialized (no wait, so the feed follows
 * from the peek's version), no slot, and no deadline unless `writer` (Deadline_OnlyWhenEnabled) says
 * otherwise. The read-out marks and hold points are the limited replay's, so a tour maps both.
 */
async function replayBase(env: ServerEnv, conn: StreamConnection, writer: DeliveryWriter | null, format: BasisFormat, basis: number | null): Promise<void> {
  const peeked = await peek(env, conn, basis);
  if (conn.isClosed) return;
  if (format === 'v2' && basis !== null && peeked.version === basis) return replyUpToDate(env, conn, basis);
  mark(conn.view, { phase: 'serializing', adm: peeked.version, asked: peeked.version, sent: null });
  const b = await serialize(env, conn, format, peeked);
  if (conn.isClosed) return;
  conn.startFeed(peeked.version);
  conn.holdBasis(b);
  writer?.beginDelivery();
  mark(conn.view, { phase: 'sending', producer: 'handing' });
  await pass(env, 'send.begin', conn.client, conn.closed);
  await handOver(env, conn, b);
  writer?.endDelivery();
  mark(conn.view, { producer: 'done' });
}

/** The limiter enabled. */
async function replayLimited(env: ServerEnv, limiter: InitLimiter, conn: StreamConnection, writer: DeliveryWriter, format: BasisFormat, basis: number | null): Promise<void> {
  const { surface, client } = conn;
  const peeked = await peek(env, conn, basis);
  if (conn.isClosed) return;
  if (format === 'v2' && basis !== null && peeked.version === basis) return replyUpToDate(env, conn, basis);

  const slot = await limiter.acquire(surface, conn.closed, {
    owner: client,
    onQueued: () => {
      mark(conn.view, { phase: 'queued' });
      void pass(env, 'queue.enter', client);
    },
    beforeAdmit: () => pass(env, 'queue.admit', client, conn.closed),
  });
  if (slot === 'gone') return;
  if (slot === 'shed') {
    env.log('warn', 'init budget full: stream shed', { surface });
    // Open after the shed only if the part leaves it so (the close marks it closed).
    mark(conn.view, { phase: 'stranded' });
    env.parts.Shed_ClosesConnection(conn);
    if (conn.isClosed) mark(conn.view, { phase: 'closed' });
    return;
  }
  let finished = false;
  const gone = () => {
    slot.release(conn.closeReason());
    finished = true;
  };
  try {
    // Admitted: deltas after the store's version now follow the basis, read now too (Serialize_ReadsAfterAdmit).
    conn.startFeed(env.store.version);
    const snap = env.parts.Serialize_ReadsAfterAdmit(peeked, env.store);
    mark(conn.view, { phase: 'serializing', adm: env.store.version, asked: snap.version, sent: null });
    const b = await serialize(env, conn, format, snap);
    if (conn.isClosed) return gone();
    conn.holdBasis(b);
    writer.beginDelivery();
    mark(conn.view, { phase: 'sending', producer: 'handing' });
    env.metrics.count('deliveries_started_total', surface);
    await pass(env, 'send.begin', client, conn.closed);
    await handOver(env, conn, b);
    writer.endDelivery();
    const { done } = await env.parts.Stream_CaptureDoneBeforeClose(
      writer,
      () => conn.batch.close(),
      () => pass(env, 'basis.closeBatch', client, conn.closed),
    );
    mark(conn.view, { producer: 'awaiting', doneLost: done === null });
    const sent = Promise.race([done ? done.then((): ReleaseReason => 'sent') : new Promise<ReleaseReason>(() => {}), conn.closed.then(() => conn.closeReason())]);
    await env.parts.Stream_HoldSlotAcrossSend(slot, sent);
    mark(conn.view, { producer: 'done' });
    finished = true;
  } finally {
    // Only an exception gets here with the slot still held.
    if (!finished && !slot.released) slot.release('abandoned');
  }
}

/** The basis a stream request names: ?basis=N or the x-basis header; null when absent; NaN when malformed. */
export function basisOf(req: IncomingMessage): number | null {
  const url = new URL(req.url ?? '/', 'http://x');
  const raw = url.searchParams.get('basis') ?? (req.headers['x-basis'] as string | undefined) ?? null;
  if (raw === null || raw === '') return null;
  return /^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
}

export async function handleStream(env: ServerEnv, base: BaseResponseWriter, w: ResponseWriter, format: BasisFormat, surface: Surface, basis: number | null, client: string | null): Promise<void> {
  w.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  w.flushHeaders();
  env.streams.open += 1;
  const limiter = env.limiter;
  const writer = env.parts.Deadline_OnlyWhenEnabled(limiter !== null) ? deliveryWriter(env, w, surface) : null;
  const view = env.views && client !== null ? env.views.open(client, 'stream', surface, base.socket) : null;
  mark(view, { phase: 'peeking', basis, writer });
  const conn = new StreamConnection(env, writer ?? w, writer, base, surface, client, view);
  const writing = conn.run();
  try {
    if (limiter && writer) await replayLimited(env, limiter, conn, writer, format, basis);
    else await replayBase(env, conn, writer, format, basis);
  } finally {
    // The replay is over (sent, shed, gone): the batch ends; a stream left open goes on live.
    mark(view, { replayDone: true });
    conn.batch.close();
    if (!conn.isClosed) conn.startFeed(env.store.version);
  }
  await writing;
}
