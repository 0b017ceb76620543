/**
 * The init-limiter reference server on node:http: start it, point clients at its url, stop it.
 * Routes: GET /sdk/stream, /all, /sdk/poll, /sdk/poll/eval, /sdk/flags, /metrics; /_control/*
 * with the test seams on. docs/init-limiter.md ("The reference server") is the manual.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { mulberry32 } from '../../../core/random.js';
import { ClientViews } from './client-views.js';
import { ManualClock, RealClock, type Clock } from './clock.js';
import { handleControl } from './control.js';
import { clientOf, type ServerEnv } from './env.js';
import { limitConcurrency, ungated, type RouteHandler } from './gates.js';
import { InitLimiter, SURFACES, type Surface } from './limiter.js';
import { Metrics, type GaugeValue } from './metrics.js';
import { resolveOptions, type InitLimiterServerOptions, type ResolvedOptions } from './options.js';
import { patchedParts } from './parts.js';
import { allFlagsHandler, basisPollHandler } from './poll.js';
import { BaseResponseWriter, RecordingWriter, type Log } from './response.js';
import { HoldPoints, NO_SEAMS } from './seams.js';
import { SingleFlight } from './single-flight.js';
import { SocketDeadlines } from './socket-deadline.js';
import { VersionedStore, type Delta, type Snapshot } from './store.js';
import { basisOf, handleStream } from './stream.js';
import { ResidentBases, type SerializedBasis } from './wire.js';

export interface InitLimiterServer {
  /** http://host:port, no trailing slash. */
  readonly url: string;
  readonly port: number;
  readonly options: ResolvedOptions;
  /** A new store version (one flag changed); live streams get the delta. */
  publish(change?: { key?: string; valueBytes?: number }): Delta;
  /** The /metrics text as a scrape would read it now. */
  metricsText(withProcess?: boolean): string;
  /** The hold points (null unless the test seams are on). */
  readonly seams: HoldPoints | null;
  readonly clock: Clock;
  /** Closes the listener and every connection, lets parked arrivals go; idempotent. */
  stop(): Promise<void>;
}

const NOOP_LOG: Log = () => {};

function json404(res: ServerResponse, message: string, status = 404): void {
  const body = Buffer.from(JSON.stringify({ error: message }));
  res.sendDate = false;
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
}

export async function startInitLimiterServer(options: InitLimiterServerOptions = {}): Promise<InitLimiterServer> {
  const o = resolveOptions(options);
  const parts = patchedParts(options.patch ?? null);
  const log = options.log ?? NOOP_LOG;
  const clock: Clock = o.testSeams?.clock === 'manual' ? new ManualClock() : new RealClock();
  const holds = o.testSeams ? new HoldPoints() : null;
  const metrics = new Metrics();
  const rng = mulberry32(o.seed);
  const limiter = o.limiter ? new InitLimiter(o.limiter, metrics, () => void holds?.at('slot.released')) : null;
  const views = holds ? new ClientViews() : null;
  const deadlines = new SocketDeadlines(clock, (owner, socket, why) => {
    views?.cut(socket);
    metrics.count('cut_total', owner.surface);
    log('warn', 'write deadline cut the connection', { surface: owner.surface, why });
  });
  const env: ServerEnv = {
    store: new VersionedStore(o.data),
    limiter,
    limits: o.limits,
    metrics,
    clock,
    seams: holds ?? NO_SEAMS,
    parts,
    log,
    deadlines,
    peekFlight: new SingleFlight<Snapshot>(),
    serializeFlight: new SingleFlight<SerializedBasis>(),
    resident: new ResidentBases(),
    heartbeatMs: o.heartbeatMs,
    retryAfter: () => o.retryAfterSeconds.min + Math.floor(rng() * (o.retryAfterSeconds.max - o.retryAfterSeconds.min + 1)),
    streams: { open: 0, live: 0 },
    pendingWrites: { count: 0 },
    views,
  };

  const gate = (surface: Surface, lazy: boolean) => {
    if (!limiter) return ungated;
    return lazy ? parts.UpToDate_NoSlot(env, surface) : limitConcurrency(env, surface);
  };
  const pollRoutes: Record<string, RouteHandler> = {
    '/sdk/flags': gate('flags', false)(allFlagsHandler(env)),
    '/sdk/poll': gate('poll', true)(basisPollHandler(env, 'poll', 'poll', basisOf)),
    '/sdk/poll/eval': gate('poll_eval', true)(basisPollHandler(env, 'poll_eval', 'poll_eval', basisOf)),
  };

  const gauges = (withProcess: boolean): GaugeValue[] => {
    const g: GaugeValue[] = [
      { name: 'enabled', help: '1 when the limiter is enabled', value: limiter ? 1 : 0 },
      { name: 'slots_max', help: 'maxConcurrent (0: disabled)', value: o.limiter?.maxConcurrent ?? 0 },
      { name: 'queue_max', help: 'maxQueued', value: o.limiter?.maxQueued ?? 0 },
      { name: 'slots_in_use', help: 'slots held now', value: limiter?.slotsInUse ?? 0 },
      { name: 'queued', help: 'waiters in the queue now', value: limiter?.queued ?? 0 },
      ...SURFACES.map((s): GaugeValue => ({ name: 'surface_slots_in_use', help: 'slots held now, per surface', value: limiter?.slotsInUseBy(s) ?? 0, labels: { surface: s } })),
      ...SURFACES.map((s): GaugeValue => ({ name: 'surface_queued', help: 'waiters now, per surface', value: limiter?.queuedBy(s) ?? 0, labels: { surface: s } })),
      { name: 'send_timeout_ms', help: 'the absolute cap on one delivery (ms; 0: limiter disabled)', value: limiter ? o.limits.sendTimeoutMs : 0 },
      { name: 'floor_bytes_per_second', help: 'the throughput floor', value: limiter ? o.limits.floorBytesPerSec : 0 },
      { name: 'slack_ms', help: 'added to every write budget (ms)', value: limiter ? o.limits.slackMs : 0 },
      { name: 'chunk_bytes', help: 'the largest piece one delivery write carries', value: limiter ? o.limits.chunkBytes : 0 },
      { name: 'clock_manual', help: '1 when deadlines run on the manual clock of the test seams', value: clock.kind === 'manual' ? 1 : 0 },
      { name: 'store_version', help: 'the store version', value: env.store.version },
      { name: 'store_value_bytes', help: 'bytes of every flag value of the current version (about a full basis)', value: env.store.valueBytes },
      { name: 'store_reads_total', help: 'whole-snapshot reads of the store', value: env.store.reads, type: 'counter' },
      { name: 'peek_flights_total', help: 'peek flights run (a store read each)', value: env.peekFlight.runs, type: 'counter' },
      { name: 'peek_joins_total', help: 'peeks that joined a flight in progress', value: env.peekFlight.joins, type: 'counter' },
      { name: 'serialize_flights_total', help: 'serializations run', value: env.serializeFlight.runs, type: 'counter' },
      { name: 'serialize_joins_total', help: 'serializations joined while in progress', value: env.serializeFlight.joins, type: 'counter' },
      { name: 'bases_resident', help: 'distinct serialized bases held by deliveries in progress', value: env.resident.count },
      { name: 'basis_bytes_resident', help: 'bytes of those bases', value: env.resident.bytes },
      { name: 'streams_open', help: 'stream connections open', value: env.streams.open },
      { name: 'streams_live', help: 'streams past their basis (live deltas and heartbeats)', value: env.streams.live },
      { name: 'feed_subscribers', help: 'streams subscribed to live deltas', value: env.store.subscribers },
      { name: 'deadlines_armed', help: 'connections with a write deadline armed now', value: deadlines.armed },
      { name: 'writes_pending', help: 'delivery writes waiting for the kernel now (a client not reading)', value: env.pendingWrites.count },
    ];
    if (withProcess) {
      const m = process.memoryUsage();
      g.push({ name: 'process_resident_memory_bytes', help: 'resident set size of the server process', value: m.rss }, { name: 'process_heap_used_bytes', help: 'V8 heap in use', value: m.heapUsed });
    }
    return g;
  };

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname;
    if (holds && (path === '/_control' || path.startsWith('/_control/')))
      return handleControl(
        {
          seams: holds,
          clock,
          store: env.store,
          metrics,
          clients: () =>
            views!.render(clock, env.store.version, (sk) => deadlines.deadlineOf(sk), {
              slotsInUse: limiter?.slotsInUse ?? 0,
              holders: limiter?.holders ?? [],
              queue: limiter?.waiting ?? [],
            }),
        },
        req,
        res,
        path,
      );
    if (req.method !== 'GET') return json404(res, `no ${req.method} ${path}`, 405);
    if (path === '/metrics') {
      const body = Buffer.from(metrics.render(gauges(url.searchParams.get('with') === 'process')));
      res.sendDate = false;
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'content-length': body.length });
      res.end(body);
      return;
    }
    const stream = path === '/sdk/stream' ? ('v2' as const) : path === '/all' ? ('put' as const) : null;
    const poll = pollRoutes[path];
    if (!stream && !poll) return json404(res, `no route ${path}`);
    const basis = basisOf(req);
    if (Number.isNaN(basis)) return json404(res, 'basis must be a non-negative integer', 400);
    const base = new BaseResponseWriter(res, deadlines);
    const w = parts.Deadline_ReachesSocket(new RecordingWriter(base), log, req);
    if (stream) return handleStream(env, base, w, stream, stream === 'v2' ? 'stream' : 'stream_all', stream === 'v2' ? basis : null, clientOf(req));
    return poll!(req, w);
  };

  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      log('warn', 'handler failed', { error: (err as Error).message });
      res.destroy();
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : o.port;
  const host = o.host.includes(':') ? `[${o.host}]` : o.host;
  let stopped: Promise<void> | null = null;
  return {
    url: `http://${host}:${port}`,
    port,
    options: o,
    publish: (change) => env.store.publish(change),
    metricsText: (withProcess = false) => metrics.render(gauges(withProcess)),
    seams: holds,
    clock,
    stop: () =>
      (stopped ??= new Promise<void>((resolve) => {
        holds?.releaseAll();
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      })),
  };
}
