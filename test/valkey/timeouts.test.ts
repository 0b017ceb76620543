/**
 * Every connection and command has a timeout (FENCECHECK_CONNECT_TIMEOUT_MS, default 5000;
 * FENCECHECK_COMMAND_TIMEOUT_MS, default 10000). An endpoint that accepts TCP and never answers —
 * a silent loopback server here — fails within the timeout with an error naming host:port, in the
 * library (standalone, Cluster, node clients, startExternal) and in the CLI (`props`, `gate --url`,
 * `slot --check --node`: exit 2). A command that timed out may have run: evalScript reports
 * OutcomeUnknownError and nothing is re-sent.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { closeClient, createClient, nodeClient, OutcomeUnknownError, startTopology, ValkeyUnavailableError, type Topology } from '../../src/valkey/index.js';
import { clientTimeouts, DEFAULT_COMMAND_TIMEOUT_MS, DEFAULT_CONNECT_TIMEOUT_MS } from '../../src/valkey/client.js';
import { CommandTimeoutError } from '../../src/valkey/errors.js';
import { startExternal } from '../../src/valkey/external.js';
import { evalScript, luaScript } from '../../src/valkey/scripts/index.js';
import { delay } from '../../src/valkey/wait.js';
import { boundMs, expectWithin, recordTiming, testTimeoutFor, waitWithin, type BoundName } from '../support/bounds.js';

const COMMAND_MS = 700;
const CONNECT_MS = 500;

const ENV_KEYS = ['FENCECHECK_VALKEY_URL', 'FENCECHECK_VALKEY_CLUSTER', 'FENCECHECK_COMMAND_TIMEOUT_MS', 'FENCECHECK_CONNECT_TIMEOUT_MS'] as const;
const saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
function restoreEnv() {
  for (const k of ENV_KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
}

/** Accepts every connection, reads everything, never writes a byte. */
let silent: Server;
let silentPort = 0;
const sockets: Socket[] = [];

beforeAll(async () => {
  silent = createServer((s) => {
    sockets.push(s);
    s.resume();
    s.on('error', () => {});
  });
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
  silentPort = (silent.address() as { port: number }).port;
});
afterAll(async () => {
  sockets.forEach((s) => s.destroy());
  await new Promise((r) => silent.close(r));
});

function fencecheck(args: string[], vars: Record<string, string>) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    FENCECHECK_VALKEY_PROVIDER: 'auto',
    FENCECHECK_DOCKER_PROBE: process.env.FENCECHECK_DOCKER_PROBE ?? 'not probed (test)',
    FENCECHECK_COMMAND_TIMEOUT_MS: String(COMMAND_MS),
    FENCECHECK_CONNECT_TIMEOUT_MS: String(CONNECT_MS),
  };
  for (const k of ['FENCECHECK_VALKEY_URL', 'FENCECHECK_VALKEY_CLUSTER', 'FENCECHECK_ALLOW_DESTRUCTIVE']) delete env[k];
  const started = Date.now();
  return new Promise<{ code: number | null; out: string; err: string; ms: number }>((resolve) => {
    const child = spawn(process.execPath, [join(projectRoot, 'bin/fencecheck.mjs'), ...args], { cwd: projectRoot, env: { ...env, ...vars }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    // Far beyond what the timeouts allow: a hang shows up as a failed expectation, not a stuck suite.
    const timer = setTimeout(() => child.kill('SIGKILL'), 2 * boundMs('cli-silent-endpoint'));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err, ms: Date.now() - started });
    });
  });
}

/** Settles within the named bound or says it did not (a hang would otherwise just time the test out). */
async function within<T>(bound: BoundName, p: Promise<T>): Promise<{ value?: T; error?: unknown; elapsed: number }> {
  const t0 = Date.now();
  const hang = Symbol('hang');
  const r = await Promise.race([
    p.then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    ),
    delay(boundMs(bound)).then(() => hang),
  ]);
  if (r === hang) throw new Error(`still pending after ${boundMs(bound)} ms`);
  const elapsed = Date.now() - t0;
  recordTiming(bound, elapsed);
  return { ...(r as { value?: T; error?: unknown }), elapsed };
}

describe('timeouts in the library', () => {
  beforeAll(() => {
    process.env.FENCECHECK_COMMAND_TIMEOUT_MS = String(COMMAND_MS);
    process.env.FENCECHECK_CONNECT_TIMEOUT_MS = String(CONNECT_MS);
  });
  afterEach(() => {
    process.env.FENCECHECK_COMMAND_TIMEOUT_MS = String(COMMAND_MS);
    process.env.FENCECHECK_CONNECT_TIMEOUT_MS = String(CONNECT_MS);
    delete process.env.FENCECHECK_VALKEY_URL;
    delete process.env.FENCECHECK_VALKEY_CLUSTER;
  });
  afterAll(restoreEnv);

  it('defaults 5000 / 10000 ms; bad values are refused with the variable named', () => {
    delete process.env.FENCECHECK_COMMAND_TIMEOUT_MS;
    delete process.env.FENCECHECK_CONNECT_TIMEOUT_MS;
    expect(clientTimeouts()).toEqual({ connectTimeoutMs: DEFAULT_CONNECT_TIMEOUT_MS, commandTimeoutMs: DEFAULT_COMMAND_TIMEOUT_MS });
    expect(DEFAULT_CONNECT_TIMEOUT_MS).toBe(5000);
    expect(DEFAULT_COMMAND_TIMEOUT_MS).toBe(10_000);
    process.env.FENCECHECK_COMMAND_TIMEOUT_MS = 'soon';
    expect(() => clientTimeouts()).toThrow(/^FENCECHECK_COMMAND_TIMEOUT_MS=soon is not an integer from 1 to 2147483647 \(milliseconds\)$/);
    process.env.FENCECHECK_COMMAND_TIMEOUT_MS = '0';
    expect(() => clientTimeouts()).toThrow(/FENCECHECK_COMMAND_TIMEOUT_MS/);
    // Beyond Node's longest timer (it fired after 1 ms, every command "timed out").
    process.env.FENCECHECK_COMMAND_TIMEOUT_MS = '3000000000';
    expect(() => clientTimeouts()).toThrow(/from 1 to 2147483647/);
  });

  it.each([
    ['a standalone client', () => createClient({ kind: 'standalone', host: '127.0.0.1', port: silentPort })],
    ['a node client', () => nodeClient({ host: '127.0.0.1', port: silentPort })],
    ['a Cluster client (commands wait in its own queue for the first slot refresh)', () => createClient({ kind: 'cluster', seeds: [{ host: '127.0.0.1', port: silentPort }] })],
  ])('%s: a silent endpoint fails within the timeout, naming host:port', async (_name, make) => {
    const c = make();
    try {
      const r = await within('silent-command-timeout', c.get('k'));
      expect(r.error).toBeInstanceOf(CommandTimeoutError);
      expect((r.error as Error).message).toContain(`127.0.0.1:${silentPort}`);
      expect((r.error as Error).message).toMatch(/FENCECHECK_COMMAND_TIMEOUT_MS/);
      expect(r.elapsed).toBeGreaterThanOrEqual(COMMAND_MS - 50);
      // A script call there is "outcome unknown" (it may have run), never a success or a plain failure.
      const s = await within('silent-command-timeout', evalScript(c, luaScript('get', "return redis.call('GET', KEYS[1])"), ['k'], []));
      expect(s.error).toBeInstanceOf(OutcomeUnknownError);
      expect((s.error as Error).message).toContain(`127.0.0.1:${silentPort}`);
    } finally {
      c.disconnect();
    }
  });

  it('startExternal on a silent endpoint: ValkeyUnavailableError naming it, within the timeout', async () => {
    for (const [name, spec] of [
      ['FENCECHECK_VALKEY_URL', { kind: 'standalone' }],
      ['FENCECHECK_VALKEY_CLUSTER', { kind: 'cluster', shards: 3 }],
    ] as const) {
      process.env[name] = `127.0.0.1:${silentPort}`;
      const r = await within('silent-external-start', startExternal(spec));
      expect(r.error).toBeInstanceOf(ValkeyUnavailableError);
      expect((r.error as Error).message).toContain(`127.0.0.1:${silentPort}`);
      expect((r.error as Error).message).toMatch(/no reply .* within 700 ms/);
    }
  });

  describe('a command that timed out on a live node', () => {
    let topo: Topology;
    beforeAll(async () => {
      topo = await startTopology({ kind: 'standalone' }, { provider: 'native' });
    });
    afterAll(async () => {
      await topo?.stop();
    });

    it(
      'ran once: OutcomeUnknownError, not re-sent; the client works afterwards',
      async () => {
        // INCR, then spin ≥ 1 s on any machine here: far past this client's 200 ms timeout. The reply
        // comes after the caller gave up.
        const slow = luaScript('slow', "local n = redis.call('INCR', KEYS[1]); local x = 0; for i = 1, 300000000 do x = x + i end; return n");
        process.env.FENCECHECK_COMMAND_TIMEOUT_MS = '200';
        const c = topo.client();
        process.env.FENCECHECK_COMMAND_TIMEOUT_MS = '30000';
        const observer = nodeClient(topo.nodes[0]!); // waits out the script
        process.env.FENCECHECK_COMMAND_TIMEOUT_MS = String(COMMAND_MS);
        try {
          await observer.del('slow:n');
          await observer.script('LOAD', slow.source);
          await c.ping(); // connected and ready: the EVALSHA below is written at once
          const t0 = Date.now();
          const r = await evalScript(c, slow, ['slow:n'], []).catch((e: unknown) => e);
          expect(r).toBeInstanceOf(OutcomeUnknownError);
          expect((r as Error).message).toMatch(/EVALSHA got no reply from 127\.0\.0\.1:\d+ within 200 ms/);
          expectWithin('timed-out-script', Date.now() - t0);
          // Wait out the script and a possible re-send (another full run), then count. Past Valkey's
          // busy threshold (5 s: the spin's length on a loaded machine) the node answers BUSY meanwhile.
          const scriptDone = async () => (await observer.ping()) === 'PONG';
          await waitWithin('busy-script-done', 'the slow script to finish', scriptDone);
          await delay(2500);
          await waitWithin('busy-script-done', 'a re-sent run to finish, if any', scriptDone);
          expect(await observer.get('slow:n')).toBe('1');
          expect(await c.incr('slow:n')).toBe(2);
        } finally {
          await Promise.all([closeClient(c), closeClient(observer)]);
        }
      },
      testTimeoutFor('busy-script-done'),
    );
  });
});

describe('timeouts in the CLI: a silent endpoint is "not run" (exit 2) within seconds, named', () => {
  // tsx start-up takes a few seconds on a loaded machine; the timeouts add well under two.
  it(
    'props with FENCECHECK_VALKEY_URL at a silent endpoint',
    async () => {
      const r = await fencecheck(['props', '--topology', 'standalone', '--runs', '1'], { FENCECHECK_VALKEY_URL: `127.0.0.1:${silentPort}` });
      expect(r.code, r.out + r.err).toBe(2);
      expect(r.out + r.err).toContain(`127.0.0.1:${silentPort}`);
      expectWithin('cli-silent-endpoint', r.ms);
    },
    testTimeoutFor('cli-silent-endpoint'),
  );

  it(
    'gate --url at a silent endpoint (and --json)',
    async () => {
      const args = ['gate', '--check', 'advance', '--url', `127.0.0.1:${silentPort}`, '--target', 'A', '--pods', 'p1=A'];
      const r = await fencecheck(args, {});
      expect(r.code, r.out + r.err).toBe(2);
      expect(r.err).toMatch(new RegExp(`not run: cannot read 127\\.0\\.0\\.1:${silentPort}`));
      expectWithin('cli-silent-endpoint', r.ms);
      const j = await fencecheck([...args, '--json'], {});
      expect(j.code).toBe(2);
      const report = JSON.parse(j.out) as { status: string; reason: string };
      expect(report.status).toBe('not-run');
      expect(report.reason).toContain(`127.0.0.1:${silentPort}`);
    },
    2 * testTimeoutFor('cli-silent-endpoint'),
  );

  it(
    'slot --check --node at a silent endpoint',
    async () => {
      const r = await fencecheck(['slot', '--check', '--node', `127.0.0.1:${silentPort}`, 'k', '--json'], {});
      expect(r.code, r.out + r.err).toBe(2);
      const report = JSON.parse(r.out) as { status: string; reason: string };
      expect(report.status).toBe('not-run');
      expect(report.reason).toContain(`127.0.0.1:${silentPort}`);
      expectWithin('cli-silent-endpoint', r.ms);
    },
    testTimeoutFor('cli-silent-endpoint'),
  );
});
