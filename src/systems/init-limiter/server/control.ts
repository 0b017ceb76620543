/**
 * The control endpoint, mounted under /_control only when the test seams are on (otherwise the
 * path is a 404 like any unknown one). JSON in, JSON out; a bad request is 400 with { error }.
 *
 *   GET  /_control[?client=C]            → { points: PointState[], clock: { kind, now }, version }
 *   POST /_control/hold    { point, count?, client? }   park the next `count` (1) arrivals at `point`
 *                                        (of client C only, when given: its requests carry x-client-id: C)
 *   POST /_control/release { point, count?, client? }   let parked arrivals go (all, and disarm, when no count)
 *   GET  /_control/wait?point=P&arrivals=N&parked=M&client=C&timeoutMs=T
 *                                        → 200 PointState once reached, 408 PointState after T ms (default 10000)
 *   POST /_control/advance { ms }        → { now, fired, cuts } (manual clock only; 409 on a real clock)
 *   POST /_control/publish { key?, valueBytes? } → { version }
 *   GET  /_control/clients               → ClientsReadout (client-views.ts): per named client what the
 *                                        server holds for it, the limiter's holders and waiters, the clock
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClientsReadout } from './client-views.js';
import type { Clock, ManualClock } from './clock.js';
import type { Metrics } from './metrics.js';
import { type HoldPoints, isClientId, isHoldPoint, COUNT_ONLY_POINTS, type HoldPoint } from './seams.js';
import type { VersionedStore } from './store.js';

export interface ControlDeps {
  readonly seams: HoldPoints;
  readonly clock: Clock;
  readonly store: VersionedStore;
  readonly metrics: Metrics;
  /** The per-client read-out, rendered now. */
  readonly clients: () => ClientsReadout;
}

class BadRequest extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const data = Buffer.from(JSON.stringify(body));
  res.sendDate = false;
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': data.length });
  res.end(data);
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    n += c.length;
    if (n > 65_536) throw new BadRequest('request body over 64 KiB');
    chunks.push(c);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new BadRequest('request body is not JSON');
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new BadRequest('request body is a JSON object');
  return v as Record<string, unknown>;
}

function point(v: unknown): HoldPoint {
  if (!isHoldPoint(v)) throw new BadRequest(`unknown hold point ${JSON.stringify(v)}`);
  return v;
}

function client(v: unknown): string | null {
  if (v === undefined || v === null || v === '') return null;
  if (!isClientId(v)) throw new BadRequest('client is a token of 1–64 letters, digits, ".", "_" or "-"');
  return v;
}

function count(v: unknown, name: string, fallback: number | undefined): number | undefined {
  if (v === undefined || v === null || v === '') return fallback;
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw new BadRequest(`${name} must be an integer ≥ 0`);
  return n;
}

/** Handles a request under /_control. */
export async function handleControl(deps: ControlDeps, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  try {
    const method = req.method ?? 'GET';
    const q = new URL(req.url ?? '/', 'http://x').searchParams;
    if (path === '/_control' && method === 'GET') {
      const c = client(q.get('client'));
      return send(res, 200, {
        points: deps.seams.states().map((s) => (c === null ? s : deps.seams.state(s.point, c))),
        clock: { kind: deps.clock.kind, now: deps.clock.now() },
        version: deps.store.version,
      });
    }
    if (path === '/_control/clients' && method === 'GET') return send(res, 200, deps.clients());
    if (path === '/_control/wait' && method === 'GET') {
      const p = point(q.get('point'));
      const c = client(q.get('client'));
      const arrivals = count(q.get('arrivals'), 'arrivals', 0)!;
      const parked = count(q.get('parked'), 'parked', 0)!;
      const timeoutMs = count(q.get('timeoutMs'), 'timeoutMs', 10_000)!;
      const ok = await deps.seams.waitFor(p, { arrivals, parked }, timeoutMs, c);
      return send(res, ok ? 200 : 408, deps.seams.state(p, c));
    }
    if (method !== 'POST') throw new BadRequest(`no ${method} ${path}`, 404);
    const body = await readJson(req);
    if (path === '/_control/hold') {
      const p = point(body.point);
      if (COUNT_ONLY_POINTS.has(p)) throw new BadRequest(`${p} counts arrivals but cannot park them`);
      return send(res, 200, deps.seams.hold(p, count(body.count, 'count', 1), client(body.client)));
    }
    if (path === '/_control/release') return send(res, 200, deps.seams.release(point(body.point), count(body.count, 'count', undefined), client(body.client)));
    if (path === '/_control/advance') {
      if (deps.clock.kind !== 'manual') throw new BadRequest('the server runs on real timers: nothing to advance', 409);
      const ms = body.ms;
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) throw new BadRequest('ms must be a number ≥ 0');
      // Let the I/O already reported run first (a write the kernel has taken is not "pending").
      await new Promise<void>((r) => setImmediate(r));
      await new Promise<void>((r) => setImmediate(r));
      const cutsBefore = deps.metrics.total('cut_total');
      const fired = (deps.clock as ManualClock).advance(ms);
      return send(res, 200, { now: deps.clock.now(), fired, cuts: deps.metrics.total('cut_total') - cutsBefore });
    }
    if (path === '/_control/publish') {
      const key = body.key;
      if (key !== undefined && typeof key !== 'string') throw new BadRequest('key must be a string');
      const valueBytes = count(body.valueBytes, 'valueBytes', undefined);
      const d = deps.store.publish({ ...(key !== undefined ? { key } : {}), ...(valueBytes !== undefined ? { valueBytes } : {}) });
      return send(res, 200, { version: d.version });
    }
    throw new BadRequest(`no ${method} ${path}`, 404);
  } catch (err) {
    if (err instanceof BadRequest) return send(res, err.status, { error: err.message });
    throw err;
  }
}
