/**
 * The reference server's surface: a disabled limiter is the base behaviour byte for byte on every
 * endpoint; options and patches are validated (one clear error naming what is wrong); the control
 * endpoint exists only with the test seams and refuses bad requests; per-client hold points park
 * and release; a cut is logged at warn and a disconnect at debug; shed polls carry a jittered
 * Retry-After within bounds. Real sockets throughout.
 */
import { connect, createServer, type Socket } from 'node:net';
import { ManualClock } from '../../src/systems/init-limiter/server/clock.js';
import { SocketDeadlines } from '../../src/systems/init-limiter/server/socket-deadline.js';
import { describe, expect, it } from 'vitest';
import { ControlClient, KeptAliveConnection, pollOnce, readMetrics, stallPayloadBytes, StreamClient } from '../../src/systems/init-limiter/drive/index.js';
import { CHECKS, runCheck } from '../../src/systems/init-limiter/drive/checks.js';
import {
  InitLimiterOptionsError,
  loadInitLimiterPatch,
  PART_NAMES,
  PatchError,
  startInitLimiterServer,
  validatePatch,
  type InitLimiterServerOptions,
  type LogLevel,
} from '../../src/systems/init-limiter/server/index.js';
import { projectRoot } from '../../src/core/project-root.js';
import { loadManifest } from '../../src/core/manifest.js';
import { withServer } from './server-support.js';

/** Every byte the server sends for `path` until `until(text)` holds (or it closes), then the socket is closed. */
function rawBytes(url: string, path: string, until: (text: string) => boolean): Promise<Buffer> {
  const { hostname, port } = new URL(url);
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const s = connect(Number(port), hostname, () => s.write(`GET ${path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`));
    const done = () => {
      s.destroy();
      resolve(Buffer.concat(chunks));
    };
    s.on('data', (d: Buffer) => {
      chunks.push(d);
      if (until(Buffer.concat(chunks).toString('latin1'))) done();
    });
    s.on('close', done);
    s.on('error', reject);
  });
}

const DATA = { flags: 40, valueBytes: 300 };

describe('a disabled limiter is the base behaviour, byte for byte', () => {
  it('every endpoint answers the same bytes with no limiter and with one configured but disabled', async () => {
    const base: InitLimiterServerOptions = { data: DATA, heartbeatMs: 0 };
    // Disabled (maxConcurrent 0) with every other knob set to values that would show if it did anything.
    const disabled: InitLimiterServerOptions = { ...base, limiter: { maxConcurrent: 0, maxQueued: 3, sendTimeoutMs: 5, floorBytesPerSec: 1, slackMs: 0, chunkBytes: 7 } };
    const sessions = await Promise.all(
      [base, disabled].map((o) =>
        withServer(o, async (s) => {
          const out: Record<string, Buffer> = {};
          const closed = () => false;
          for (const p of ['/sdk/flags', '/sdk/poll', '/sdk/poll?basis=1', '/sdk/poll?basis=0', '/sdk/poll/eval', '/sdk/poll/eval?basis=1', '/sdk/poll?basis=x', '/nowhere', '/metrics'])
            out[p] = await rawBytes(s.url, p, closed);
          const streams = [
            rawBytes(s.url, '/sdk/stream', (t) => t.includes('event: patch')),
            rawBytes(s.url, '/sdk/stream?basis=1', (t) => t.includes('event: patch')),
            rawBytes(s.url, '/all', (t) => t.includes('event: patch')),
          ];
          // Every stream is live before the publish (its basis or up-to-date reply, then the delta).
          await (async () => {
            for (;;) {
              const m = await readMetrics(s.url);
              if (m.value('initlimiter_streams_live') === 3) return;
              await new Promise((r) => setTimeout(r, 5));
            }
          })();
          s.publish();
          const [v2, upToDate, all] = await Promise.all(streams);
          out['/sdk/stream'] = v2!;
          out['/sdk/stream?basis=1'] = upToDate!;
          out['/all'] = all!;
          out['/metrics (after)'] = await rawBytes(s.url, '/metrics', closed);
          return out;
        }),
      ),
    );
    const [a, b] = sessions as [Record<string, Buffer>, Record<string, Buffer>];
    expect(Object.keys(b)).toEqual(Object.keys(a));
    for (const k of Object.keys(a)) {
      expect(a[k]!.length, k).toBeGreaterThan(0);
      expect(b[k]!.equals(a[k]!), `${k} differs:\n${a[k]!.toString('latin1').slice(0, 400)}\n---\n${b[k]!.toString('latin1').slice(0, 400)}`).toBe(true);
    }
    // What was compared is the real thing: a full basis, an up-to-date reply, a delta, a 400, a 404.
    expect(a['/sdk/stream']!.toString()).toContain('event: payload-transferred');
    expect(a['/sdk/stream?basis=1']!.toString()).toContain('"intent":"none"');
    expect(a['/sdk/poll?basis=x']!.toString()).toMatch(/^HTTP\/1\.1 400/);
    expect(a['/nowhere']!.toString()).toMatch(/^HTTP\/1\.1 404/);
    expect(a['/metrics']!.toString()).toContain('initlimiter_enabled 0');
  });
});

describe('options and patches', () => {
  it.each([
    [{ limiter: { maxConcurrent: -1 } }, 'limiter.maxConcurrent'],
    [{ limiter: { maxConcurrent: 2, maxQueued: 1.5 } }, 'limiter.maxQueued'],
    [{ limiter: { maxConcurrent: 2, floorBytesPerSec: 0 } }, 'limiter.floorBytesPerSec'],
    [{ host: '0.0.0.0' }, 'host must be a loopback address'],
    [{ retryAfterSeconds: { min: 5, max: 1 } }, 'retryAfterSeconds.max'],
    [{ testSeams: { clock: 'sundial' } }, 'testSeams.clock'],
  ] as [InitLimiterServerOptions, string][])('refuses %j naming %s', async (o, named) => {
    const err = await startInitLimiterServer(o).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InitLimiterOptionsError);
    expect((err as Error).message).toContain(named);
  });

  it('a patch naming an unknown part, or a part of the wrong shape, is refused naming it', () => {
    expect(() => validatePatch({ system: 'init-limiter', parts: { Stream_HoldSlotAcrossSned: () => {} } })).toThrow(/unknown part 'Stream_HoldSlotAcrossSned'/);
    expect(() => validatePatch({ system: 'init-limiter', parts: { Peek_KeyedByBasis: 'basis' } })).toThrow(/'Peek_KeyedByBasis' is a function/);
    expect(() => validatePatch({ system: 'init-limiter', parts: { Deadline_ThroughputFloor: () => 0 } })).toThrow(/WriteBudget/);
    expect(() => validatePatch({ system: 'pause', parts: {} })).toThrow(PatchError);
    expect(() => validatePatch({ system: 'init-limiter', parts: {} })).toThrow(/at least one part/);
  });

  it("every part's first guard mutant in the manifest loads and replaces exactly that part", async () => {
    const entries = loadManifest().mutants.filter((m) => m.system === 'init-limiter' && m.kind === 'guard');
    for (const part of PART_NAMES) {
      const m = entries.find((e) => e.target === part);
      expect(m, part).toBeDefined();
      const patch = await loadInitLimiterPatch(m!.layers.impl!.patch!, projectRoot);
      expect(Object.keys(patch.parts)).toEqual([part]);
    }
  });
});

describe('the control endpoint and the hold points', () => {
  it('exists only with the test seams: without them /_control is a 404 and hold points do nothing', async () => {
    await withServer({ limiter: { maxConcurrent: 1 } }, async (s) => {
      expect(await new ControlClient(s.url).available()).toBe(false);
      const r = await pollOnce(s.url, '/_control');
      expect(r.kind === 'response' && r.status).toBe(404);
      expect(s.seams).toBeNull();
      expect((await readMetrics(s.url)).value('initlimiter_clock_manual')).toBe(0);
    });
  });

  it('refuses bad requests with 400 and one line, and advance on a real clock with 409', async () => {
    await withServer({ limiter: { maxConcurrent: 1 }, testSeams: { clock: 'real' } }, async (s) => {
      const c = new ControlClient(s.url);
      await expect(c.hold('nowhere')).rejects.toThrow(/400 unknown hold point "nowhere"/);
      await expect(c.hold('slot.released')).rejects.toThrow(/counts arrivals but cannot park/);
      await expect(c.hold('peek.return', 1, 'bad id!')).rejects.toThrow(/client is a token/);
      await expect(c.advance(10)).rejects.toThrow(/409 the server runs on real timers/);
      await expect(c.wait('peek.enter', { arrivals: 1 }, 50)).rejects.toThrow(/did not reach/);
    });
  });

  it('a per-client hold parks only that client; a parked client that disconnects goes on (and out)', async () => {
    await withServer({ limiter: { maxConcurrent: 2 }, testSeams: true, heartbeatMs: 0 }, async (s) => {
      const c = new ControlClient(s.url);
      await c.hold('peek.return', 1, 'a');
      const a = await StreamClient.open(s.url, { client: 'a' });
      const b = await StreamClient.open(s.url, { client: 'b' });
      try {
        await c.wait('peek.return', { parked: 1 }, 5_000, 'a');
        expect(await b.waitFor(() => b.has('payload-transferred'))).toBe(true);
        expect(a.events).toEqual([]);
        expect((await c.point('peek.return', 'b')).arrivals).toBe(1);
        await c.release('peek.return', undefined, 'a');
        expect(await a.waitFor(() => a.has('payload-transferred'))).toBe(true);
        // Parked, then gone: the arrival is let go, the flight it kept joinable ends, nothing leaks.
        await c.hold('peek.return', 1, 'd');
        const d = await StreamClient.open(s.url, { client: 'd' });
        await c.wait('peek.return', { parked: 1 }, 5_000, 'd');
        d.disconnect();
        await (async () => {
          for (;;) if ((await c.point('peek.return', 'd')).parked === 0) return;
        })();
        const m = await readMetrics(s.url);
        expect(m.value('initlimiter_slots_in_use')).toBe(0);
      } finally {
        a.disconnect();
        b.disconnect();
      }
    });
  });
});

describe('the queue, as the spec has it', () => {
  it('a freed slot wakes the waiter, which takes it at Admit (queue.admit) unless a newcomer took it first; a waiter that goes away leaves the queue', async () => {
    await withServer({ limiter: { maxConcurrent: 1, maxQueued: 1 }, testSeams: true, heartbeatMs: 0, data: { flags: 4, valueBytes: 16 } }, async (s) => {
      const c = new ControlClient(s.url);
      const gauge = async (name: string) => (await readMetrics(s.url)).value(`initlimiter_${name}`);
      await c.hold('send.begin', 1, 'a');
      const a = await StreamClient.open(s.url, { client: 'a' });
      await c.wait('send.begin', { parked: 1 }, 5_000, 'a');
      await c.hold('queue.admit', 1, 'b');
      const b = await StreamClient.open(s.url, { client: 'b' });
      await c.wait('queue.enter', { arrivals: 1 }, 5_000, 'b');
      try {
        await c.release('send.begin', undefined, 'a');
        expect(await a.waitFor(() => a.has('payload-transferred'))).toBe(true);
        await c.wait('queue.admit', { parked: 1 }, 5_000, 'b');
        // The slot is free and b has not taken it yet: a newcomer does (and holds it at send.begin).
        expect(await gauge('slots_in_use')).toBe(0);
        await c.hold('send.begin', 1, 'n');
        const n = await StreamClient.open(s.url, { client: 'n' });
        await c.wait('send.begin', { parked: 1 }, 5_000, 'n');
        await c.release('queue.admit', undefined, 'b');
        expect(await gauge('queued')).toBe(1);
        expect(b.events).toEqual([]);
        await c.release('send.begin', undefined, 'n');
        expect(await n.waitFor(() => n.has('payload-transferred'))).toBe(true);
        expect(await b.waitFor(() => b.has('payload-transferred'))).toBe(true);
        // A waiter whose client goes away leaves the queue without a slot.
        await c.hold('send.begin', 1, 'h');
        const h = await StreamClient.open(s.url, { client: 'h' });
        await c.wait('send.begin', { parked: 1 }, 5_000, 'h');
        const w = await StreamClient.open(s.url, { client: 'w' });
        await c.wait('queue.enter', { arrivals: 1 }, 5_000, 'w');
        w.disconnect();
        const m = await (async () => {
          for (;;) {
            const x = await readMetrics(s.url);
            if (x.value('initlimiter_queued') === 0) return x;
          }
        })();
        expect(m.value('initlimiter_queue_abandoned_total', { surface: 'stream' })).toBe(1);
        expect(m.value('initlimiter_slots_in_use')).toBe(1);
        await c.release('send.begin', undefined, 'h');
        expect(await h.waitFor(() => h.has('payload-transferred'))).toBe(true);
        n.disconnect();
        h.disconnect();
      } finally {
        a.disconnect();
        b.disconnect();
      }
    });
  });
});

describe('a connection write deadline (Go semantics on a real socket)', () => {
  /** A loopback connection: the server side (where the deadline is set) and a client that reads or not. */
  async function pair(): Promise<{ server: Socket; client: Socket; close: () => void }> {
    let server: Socket | undefined;
    const listener = createServer((s) => (server = s));
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', () => r()));
    const port = (listener.address() as { port: number }).port;
    const client = connect(port, '127.0.0.1');
    await new Promise<void>((r) => client.once('connect', () => r()));
    while (!server) await new Promise((r) => setTimeout(r, 1));
    const srv = server;
    srv.on('error', () => {});
    client.on('error', () => {});
    return { server: srv, client, close: () => (srv.destroy(), client.destroy(), listener.close()) };
  }
  const closedOf = (s: Socket) => new Promise<void>((r) => (s.destroyed ? r() : s.once('close', () => r())));

  it('passing with no write pending cuts nothing; the next write after it is cut; a cleared deadline cuts nothing', async () => {
    const clock = new ManualClock();
    const cuts: string[] = [];
    const deadlines = new SocketDeadlines(clock, (_o, _s, why) => cuts.push(why));
    const { server, client, close } = await pair();
    try {
      const d = deadlines.of(server);
      d.set(100, { surface: 'poll' });
      expect(deadlines.armed).toBe(1);
      clock.advance(150);
      expect(server.destroyed).toBe(false);
      server.write('late');
      expect(cuts).toEqual(['write after the deadline']);
      await closedOf(client);
      const b = await pair();
      const d2 = deadlines.of(b.server);
      d2.set(100, { surface: 'poll' });
      d2.set(null, { surface: 'poll' });
      clock.advance(150);
      b.server.write('fine');
      expect(b.server.destroyed).toBe(false);
      expect(deadlines.armed).toBe(0);
      b.close();
    } finally {
      close();
    }
  });

  it('a write the client does not read is cut when the deadline passes (the socket is destroyed)', async () => {
    const clock = new ManualClock();
    const cuts: string[] = [];
    const deadlines = new SocketDeadlines(clock, (_o, _s, why) => cuts.push(why));
    const { server, client, close } = await pair();
    try {
      client.pause();
      deadlines.of(server).set(1_000, { surface: 'stream' });
      // More than the kernel buffers take: the write stays pending.
      server.write(Buffer.alloc(stallPayloadBytes(), 1));
      clock.advance(999);
      expect(server.destroyed).toBe(false);
      clock.advance(1);
      expect(cuts).toEqual(['pending write']);
      expect(server.destroyed).toBe(true);
    } finally {
      close();
    }
  });
});

describe('logs and retry-after', () => {
  it('a deadline cut is logged at warn, a client disconnect at debug (never warn)', async () => {
    const lines: Array<[LogLevel, string]> = [];
    const log = (l: LogLevel, m: string) => void lines.push([l, m]);
    for (const id of ['stall-cut-at-cap', 'disconnect-frees-slot']) {
      const check = CHECKS.find((c) => c.id === id)!;
      lines.length = 0;
      const out = await withServer({ ...check.server, testSeams: true, log }, (s) => runCheck(check, s.url, new ControlClient(s.url)));
      expect(out.status, out.observed).toBe('held');
      if (id === 'stall-cut-at-cap') expect(lines).toContainEqual(['warn', 'write deadline cut the connection']);
      else {
        expect(lines).toContainEqual(['debug', 'stream closed by the client']);
        expect(lines.filter(([l]) => l === 'warn')).toEqual([]);
      }
    }
  });

  it('a shed poll answers 503, Retry-After jittered within [min, max] and the same for the same seed, and a JSON body', async () => {
    const run = (seed: number) =>
      withServer({ limiter: { maxConcurrent: 1 }, retryAfterSeconds: { min: 2, max: 4 }, seed, testSeams: true, heartbeatMs: 0 }, async (s) => {
        const c = new ControlClient(s.url);
        await c.hold('poll.admitted');
        const held = pollOnce(s.url, '/sdk/flags');
        await c.wait('poll.admitted', { parked: 1 });
        const conn = await KeptAliveConnection.open(s.url);
        const got: number[] = [];
        for (let i = 0; i < 12; i++) {
          const r = await conn.request('/sdk/poll');
          if (r.kind !== 'response') throw new Error(r.kind);
          expect(r.status).toBe(503);
          expect(r.headers['content-type']).toBe('application/json');
          expect((r.json as { error: string }).error).toBe('init_budget_full');
          got.push(Number(r.headers['retry-after']));
        }
        conn.close();
        await c.release('poll.admitted');
        expect((await held).kind).toBe('response');
        return got;
      });
    const a = await run(7);
    expect(a.every((x) => Number.isInteger(x) && x >= 2 && x <= 4)).toBe(true);
    expect(new Set(a).size).toBeGreaterThan(1);
    expect(await run(7)).toEqual(a);
  });
});
