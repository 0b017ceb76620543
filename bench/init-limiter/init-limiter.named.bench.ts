import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { projectRoot } from '../../src/core/project-root.js';
import { percentile } from '../../src/core/stats.js';
import { ControlClient, KeptAliveConnection, readMetrics, StreamClient, stallAbsorptionBound, stallPayloadBytes } from '../../src/systems/init-limiter/drive/index.js';
import { InitLimiter } from '../../src/systems/init-limiter/server/limiter.js';
import { Metrics } from '../../src/systems/init-limiter/server/metrics.js';
import { startInitLimiterServer, type InitLimiterServer, type InitLimiterServerOptions } from '../../src/systems/init-limiter/server/index.js';
import type { BenchSection } from '../section.js';

/**
 * The init-concurrency limiter's reference server, production mode (no test seams, the
 * real clock), over real HTTP on loopback — run only when named (`npm run bench -- init-limiter`):
 * - decisions per second: the limiter's own acquire/release in-process, and polls answered per
 *   second over kept-alive connections with the limiter disabled (the base handler: routes are
 *   `ungated`, nothing wrapped), enabled with full polls (a slot each) and enabled with up-to-date
 *   polls (no slot), interleaved rounds in the same run;
 * - resident memory with N stalled FDv1 clients at N distinct store versions, limiter enabled
 *   (MaxConcurrent slots) against disabled: the server's resident bases and the process's RSS,
 *   and the slope per client;
 * - a 100 KB/s reader completes a 3 MB delivery (beyond what the kernel absorbs), and a stalled
 *   client is cut at its per-write deadline, both on the real clock with the seed's limits.
 */
const ROUND_MS = 1_000;
const ROUNDS = 5;
const CONNECTIONS = 8;
const STALLED = [0, 2, 4, 8];
const SLOTS = 2;
const READER_BYTES_PER_SEC = 100 * 1024;

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

async function withServer<T>(o: InitLimiterServerOptions, fn: (s: InitLimiterServer) => Promise<T>): Promise<T> {
  const s = await startInitLimiterServer(o);
  try {
    return await fn(s);
  } finally {
    await s.stop();
  }
}

/** Requests answered per second on `CONNECTIONS` kept-alive connections, each looping `path()`. */
async function pollRate(url: string, path: () => string, ms: number): Promise<{ perSec: number; statuses: Map<number, number> }> {
  const conns = await Promise.all(Array.from({ length: CONNECTIONS }, () => KeptAliveConnection.open(url)));
  const statuses = new Map<number, number>();
  let done = 0;
  const end = performance.now() + ms;
  const t0 = performance.now();
  try {
    await Promise.all(
      conns.map(async (c) => {
        while (performance.now() < end) {
          const r = await c.request(path());
          const code = r.kind === 'response' ? r.status : -1;
          statuses.set(code, (statuses.get(code) ?? 0) + 1);
          done += 1;
        }
      }),
    );
  } finally {
    for (const c of conns) c.close();
  }
  return { perSec: (done * 1000) / (performance.now() - t0), statuses };
}

async function decisions(print: (line: string) => void): Promise<void> {
  // The limiter alone: acquire and release of one slot, no HTTP.
  const limiter = new InitLimiter({ maxConcurrent: 4, maxQueued: 0 }, new Metrics());
  const never = new Promise<never>(() => {});
  const n = 200_000;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const slot = await limiter.acquire('flags', never);
    if (typeof slot !== 'string') slot.release('returned');
  }
  print(`  limiter alone: ${Math.round((n * 1000) / (performance.now() - t0)).toLocaleString('en-US')} acquire+release/s (in-process)`);

  const data = { flags: 16, valueBytes: 64 };
  await withServer({ data, heartbeatMs: 0 }, (off) =>
    withServer({ data, heartbeatMs: 0, limiter: { maxConcurrent: 1_000 } }, async (on) => {
      const v = (await readMetrics(on.url)).value('initlimiter_store_version');
      const kinds = [
        { name: 'disabled (base handler), /sdk/flags', url: off.url, path: () => '/sdk/flags' },
        { name: 'enabled, /sdk/flags (a slot each)', url: on.url, path: () => '/sdk/flags' },
        { name: 'disabled (base handler), /sdk/poll up to date', url: off.url, path: () => `/sdk/poll?basis=${v}` },
        { name: 'enabled, /sdk/poll up to date (no slot)', url: on.url, path: () => `/sdk/poll?basis=${v}` },
      ];
      const rates = new Map<string, number[]>(kinds.map((k) => [k.name, []]));
      for (let round = 0; round < ROUNDS; round++) {
        for (const k of kinds) {
          const r = await pollRate(k.url, k.path, ROUND_MS);
          if ((r.statuses.get(200) ?? 0) === 0 || r.statuses.size > 1) print(`  ! ${k.name}: statuses ${[...r.statuses].map(([s, c]) => `${s}×${c}`).join(' ')}`);
          rates.get(k.name)!.push(r.perSec);
        }
      }
      const median = (xs: readonly number[]) => percentile(xs, 50);
      const base = median(rates.get(kinds[0]!.name)!);
      for (const k of kinds) {
        const m = median(rates.get(k.name)!);
        const xs = rates.get(k.name)!;
        print(
          `  ${k.name.padEnd(48)} ${Math.round(m).toLocaleString('en-US').padStart(7)} req/s (median of ${ROUNDS} × ${ROUND_MS} ms, range ${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))}, ${CONNECTIONS} connections; ${((100 * m) / base).toFixed(0)} % of the disabled /sdk/flags)`,
        );
      }
    }),
  );
}

/** A reference server in its own process (bench/init-limiter/server.ts): its RSS is the server's alone. */
async function withServerProcess<T>(o: InitLimiterServerOptions, fn: (url: string) => Promise<T>): Promise<T> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/init-limiter/server.ts', JSON.stringify(o)], { cwd: projectRoot, stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (b: Buffer) => {
        out += b.toString();
        const nl = out.indexOf('\n');
        if (nl >= 0) resolve(out.slice(0, nl).trim());
      });
      child.once('exit', (code) => reject(new Error(`the server process ended (exit ${code}) before it listened`)));
    });
    return await fn(url);
  } finally {
    child.stdin.end();
    const late = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(late);
  }
}

/** The server's RSS and resident bases with `n` stalled FDv1 clients, each connected after a publish (distinct versions). */
async function stalledAt(o: InitLimiterServerOptions, n: number): Promise<{ rss: number; bases: number; basisBytes: number; shed: number }> {
  // The manual clock (test seams) only for /_control/publish: no deadline passes, nothing is cut meanwhile.
  return withServerProcess({ ...o, testSeams: { clock: 'manual' } }, async (url) => {
    const control = new ControlClient(url);
    const clients: StreamClient[] = [];
    try {
      for (let i = 0; i < n; i++) {
        await control.publish();
        const c = await StreamClient.open(url, { path: '/all', read: 'stalled' });
        clients.push(c);
        await c.waitFor(() => c.bodyBytes > 0 || c.isClosed);
      }
      await sleep(600);
      const m = await readMetrics(url, true);
      return {
        rss: m.value('initlimiter_process_resident_memory_bytes'),
        bases: m.value('initlimiter_bases_resident'),
        basisBytes: m.value('initlimiter_basis_bytes_resident'),
        shed: m.sum('initlimiter_shed_total'),
      };
    } finally {
      for (const c of clients) c.disconnect();
    }
  });
}

function slope(xs: readonly number[], ys: readonly number[]): number {
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  const num = xs.reduce((a, x, i) => a + (x - mx) * (ys[i]! - my), 0);
  const den = xs.reduce((a, x) => a + (x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

async function memory(print: (line: string) => void): Promise<void> {
  const payload = stallPayloadBytes();
  const data = { flags: 64, valueBytes: Math.ceil(payload / 64) };
  print(`  payload ${mb(payload)} per basis (beyond the ${mb(stallAbsorptionBound())} a stalled connection's kernel buffers absorb), MaxConcurrent ${SLOTS}`);
  for (const [name, limiter] of [
    ['enabled', { maxConcurrent: SLOTS }],
    ['disabled', null],
  ] as const) {
    const rows: Array<{ n: number; rss: number; bases: number; basisBytes: number; shed: number }> = [];
    for (const n of STALLED) rows.push({ n, ...(await stalledAt({ data, heartbeatMs: 0, limiter }, n)) });
    // Beyond MaxConcurrent clients is where the budget must show: the slope over N ≥ SLOTS.
    const beyond = rows.filter((r) => r.n >= SLOTS);
    const rssSlope = slope(
      beyond.map((r) => r.n),
      beyond.map((r) => r.rss),
    );
    const basesSlope = slope(
      beyond.map((r) => r.n),
      beyond.map((r) => r.basisBytes),
    );
    print(`  limiter ${name}: ${rows.map((r) => `N=${r.n} ${r.bases} bases (${mb(r.basisBytes)}) RSS ${mb(r.rss)}${r.shed ? ` shed ${r.shed}` : ''}`).join('; ')}`);
    print(`    slope per stalled client beyond ${SLOTS}: resident bases ${mb(basesSlope)}, RSS ${mb(rssSlope)} (payload ${mb(payload)}; bound MaxConcurrent × payload = ${mb(SLOTS * payload)})`);
  }
}

async function readers(print: (line: string) => void): Promise<void> {
  // The seed's limits (64 KB/s floor, 1 MiB pieces, 2 s slack, 2 m cap), the real clock.
  const limiter = { maxConcurrent: 4 };
  const steady = withServer({ limiter, data: { flags: 64, valueBytes: Math.ceil((3_000_000 + stallAbsorptionBound()) / 64) }, heartbeatMs: 0 }, async (s) => {
    const c = await StreamClient.open(s.url, { path: '/all', read: 'stalled' });
    const t0 = performance.now();
    try {
      const step = READER_BYTES_PER_SEC / 10;
      await c.readSteady({ bytesPerSec: READER_BYTES_PER_SEC, stepBytes: step, pacer: { kind: 'real', wait: (ms) => sleep(ms) }, until: () => c.has('put'), stepTimeoutMs: 30_000 });
      const m = await readMetrics(s.url);
      return `a ${READER_BYTES_PER_SEC / 1024} KB/s reader, ${mb(c.bodyBytes)} of a ${mb(s.options.data.flags * s.options.data.valueBytes)} basis: ${c.has('put') ? 'completed' : c.isClosed ? 'cut' : 'stopped'} after ${((performance.now() - t0) / 1000).toFixed(1)} s, ${m.sum('initlimiter_cut_total')} cuts`;
    } finally {
      c.disconnect();
    }
  });
  const stalled = withServer({ limiter, data: { flags: 64, valueBytes: Math.ceil(stallPayloadBytes() / 64) }, heartbeatMs: 0 }, async (s) => {
    const c = await StreamClient.open(s.url, { path: '/all', read: 'stalled' });
    try {
      const t0 = performance.now();
      while ((await readMetrics(s.url)).value('initlimiter_writes_pending') < 1) await sleep(20);
      const blockedAt = performance.now();
      while ((await readMetrics(s.url)).sum('initlimiter_cut_total') < 1 && performance.now() - blockedAt < 180_000) await sleep(50);
      const m = await readMetrics(s.url);
      const l = s.options.limits;
      const budget = (l.chunkBytes * 1000) / l.floorBytesPerSec + l.slackMs;
      return `a stalled client: its write blocked after ${((blockedAt - t0) / 1000).toFixed(1)} s, ${m.sum('initlimiter_cut_total') ? `cut ${((performance.now() - blockedAt) / 1000).toFixed(1)} s later` : 'not cut in 180 s'} (a piece's budget ${(budget / 1000).toFixed(0)} s, the cap ${l.sendTimeoutMs / 1000} s); slots in use ${m.value('initlimiter_slots_in_use')}`;
    } finally {
      c.disconnect();
    }
  });
  for (const line of await Promise.all([steady, stalled])) print(`  ${line}`);
}

export const section: BenchSection = {
  name: 'init-limiter',
  title: 'init-concurrency limiter: decisions/s enabled and disabled, resident memory under stalled clients, a slow reader and a stalled one on the real clock',
  async run(print) {
    print('decisions per second');
    await decisions(print);
    print('resident memory with N stalled FDv1 clients at distinct store versions');
    await memory(print);
    print('the real clock: a slow steady reader and a stalled client (run side by side)');
    await readers(print);
  },
};
