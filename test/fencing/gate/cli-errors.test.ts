import { spawn } from 'node:child_process';
import net from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectRoot } from '../../../src/core/project-root.js';
import { startTopology, type Topology, type ValkeyClient } from '../../../src/valkey/index.js';
import { expectWithin } from '../../support/bounds.js';

/** Runs the CLI without blocking this process's event loop (the non-RESP server below lives here). */
function gate(url: string, ...extra: string[]): Promise<{ code: number | null; out: string; err: string; ms: number }> {
  return gateWith({}, url, ...extra);
}

function gateWith(env: NodeJS.ProcessEnv, url: string, ...extra: string[]): Promise<{ code: number | null; out: string; err: string; ms: number }> {
  const t0 = Date.now();
  const child = spawn(process.execPath, [join(projectRoot, 'bin/fencecheck.mjs'), 'gate', '--check', 'advance', '--url', url, '--target', 'B', '--pods', 'p1=B', ...extra], {
    cwd: projectRoot,
    env: { ...process.env, FENCECHECK_VALKEY_PROVIDER: 'native', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out, err, ms: Date.now() - t0 })));
}

/** One line on stderr, no stack frame, nothing of the census script's Lua source, no ioredis internals. */
function expectOneCleanLine(err: string): void {
  const lines = err.trimEnd().split('\n');
  expect(lines, err).toHaveLength(1);
  expect(err).not.toMatch(/\n\s+at |crashed|redis\.call|local live|fc_lease|ReplyError|Please report/);
}

describe('fencecheck gate on a keyspace it cannot read as fencing keys (real Valkey)', () => {
  let topo: Topology;
  let conn: ValkeyClient;
  let url: string;
  beforeAll(async () => {
    topo = await startTopology({ kind: 'standalone' }, { provider: 'native' });
    conn = topo.client();
    url = `${topo.nodes[0]!.host}:${topo.nodes[0]!.port}`;
  });
  afterAll(async () => {
    conn?.disconnect();
    await topo?.stop();
  });
  beforeEach(async () => {
    await topo.flush();
    await conn.set('buzz:c:tunnel:ok:lease', 'p1:2', 'PX', 60_000);
    await conn.set('buzz:c:tunnel:ok:generation', '2');
  });

  it('a list at a lease key: exit 3, one line naming the key (by --session and by SCAN)', async () => {
    await conn.rpush('buzz:c:tunnel:s:lease', 'x');
    for (const extra of [['--session', 'c:s'], []]) {
      const r = await gate(url, ...extra);
      expect(r.code, r.err).toBe(3);
      expect(r.err).toMatch(/^fencecheck gate: bad input: key 'buzz:c:tunnel:s:lease' holds a list, not a lease/);
      expectOneCleanLine(r.err);
    }
  });

  it('a malformed lease value or counter: exit 3 naming the key', async () => {
    await conn.set('buzz:tunnel:{c:s}:lease', 'garbage', 'PX', 60_000);
    const lease = await gate(url);
    expect(lease.code, lease.err).toBe(3);
    expect(lease.err).toMatch(/bad input: key 'buzz:tunnel:\{c:s\}:lease' is not a lease/);
    expectOneCleanLine(lease.err);
    const one = await gate(url, '--session', 'c:s', '--json');
    expect(one.code, one.err).toBe(3);
    expect((JSON.parse(one.out) as { status: string; reason: string }).reason).toMatch(/buzz:tunnel:\{c:s\}:lease/);
    await conn.del('buzz:tunnel:{c:s}:lease');
    await conn.set('buzz:c:tunnel:s:generation', '1x');
    const gen = await gate(url);
    expect(gen.code, gen.err).toBe(3);
    expect(gen.err).toMatch(/bad input: key 'buzz:c:tunnel:s:generation' is not a generation counter/);
    expectOneCleanLine(gen.err);
  });

  it('a readable keyspace still answers (the good session alone is refused by nothing it holds)', async () => {
    const r = await gate(url);
    expect([0, 1]).toContain(r.code);
    expect(r.out).toMatch(/old-keyspace leases 1, new-keyspace leases 0, sessions 1/);
  });
});

describe('fencecheck gate --url at a port that does not speak RESP', () => {
  let server: net.Server;
  let port: number;
  const sockets = new Set<net.Socket>();
  beforeAll(async () => {
    server = net.createServer((s) => {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
      s.end('HTTP/1.1 400\r\n\r\n');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  });

  it('exit 2 (could not run), one line saying so, at once', async () => {
    // Timeouts far past the bound: an exit that waited for one of them cannot pass as "at once".
    const r = await gateWith({ FENCECHECK_COMMAND_TIMEOUT_MS: '600000', FENCECHECK_CONNECT_TIMEOUT_MS: '600000' }, `127.0.0.1:${port}`);
    expect(r.code, r.err).toBe(2);
    expect(r.err).toMatch(/^fencecheck gate: not run: cannot read 127\.0\.0\.1:\d+: it does not answer in RESP/);
    expectOneCleanLine(r.err);
    expectWithin('gate-non-resp', r.ms); // not the command timeout (set far beyond the bound below)
  });
});
