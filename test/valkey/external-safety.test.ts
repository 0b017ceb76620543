/**
 * "Never destroy what is not ours": a user's own Valkey on loopback — a 3-shard cluster
 * and a standalone node that the harness did NOT start (plain valkey-server processes spawned here,
 * unknown to the process registry) — pointed at through FENCECHECK_VALKEY_CLUSTER / _URL.
 * Whatever the harness runs against them, every unrelated key survives byte for byte (DUMP, TTL
 * presence), the configuration, the cluster's shape and the script cache are unchanged, the door
 * is "not run: needs an owned topology" (exit 2) before it sends a command, and no key under the
 * run's prefix is left behind. A topology the harness started itself, named the same way, IS owned.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, Redis } from 'ioredis';
import { projectRoot } from '../../src/core/project-root.js';
import { freeLoopbackPort } from '../../src/valkey/ports.js';
import { delay, waitUntil } from '../../src/valkey/wait.js';
import { closeClient, startTopology, UnsafeOperationError, ValkeyUnavailableError, type Topology } from '../../src/valkey/index.js';
import { parseClusterNodes, parseEndpoint, prefixPattern, removeKeysUnder, startExternal } from '../../src/valkey/external.js';
import { destructiveReason, nodeClient } from '../../src/valkey/client.js';
import { NotOwnedError } from '../../src/valkey/errors.js';
import { maskSecrets } from '../../src/core/secrets.js';
import { createDoor } from '../../src/systems/fencing/door.js';
import { runInvariants } from '../../properties/limiter/invariants.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';

// ---------------------------------------------------------------------------------------------
// The user's servers: plain processes, stopped by PID in afterAll.

const spawned: { child: ChildProcess; dir: string }[] = [];

async function userServer(opts: { cluster?: boolean; args?: string[] } = {}): Promise<{ port: number; pid: number }> {
  const port = await freeLoopbackPort();
  const dir = ownedTempDir('user-valkey');
  const args = ['--port', String(port), '--bind', '127.0.0.1', '127.0.0.2', '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--logfile', join(dir, 'log')];
  if (opts.cluster) {
    const bus = await freeLoopbackPort();
    args.push('--cluster-enabled', 'yes', '--cluster-config-file', join(dir, 'nodes.conf'), '--cluster-port', String(bus), '--cluster-node-timeout', '3000');
  }
  args.push(...(opts.args ?? []));
  const child = spawn('valkey-server', args, { stdio: 'ignore' });
  spawned.push({ child, dir });
  const password = opts.args?.[opts.args.indexOf('--requirepass') + 1];
  await waitUntil(
    `user valkey-server on ${port}`,
    async () => {
      const c = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0, ...(opts.args?.includes('--requirepass') ? { password } : {}) });
      c.on('error', () => {});
      try {
        await c.connect();
        return (await c.ping()) === 'PONG';
      } catch {
        return false;
      } finally {
        c.disconnect();
      }
    },
    15_000,
  );
  return { port, pid: child.pid! };
}

async function stopSpawned(): Promise<void> {
  await Promise.all(
    spawned.map(async ({ child, dir }) => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        process.kill(child.pid!, 'SIGTERM');
        if ((await Promise.race([exited.then(() => true), delay(3000).then(() => false)])) === false) process.kill(child.pid!, 'SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    }),
  );
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env, timeoutMs = 120_000): Promise<{ code: number | null; out: string; err: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: projectRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err, ms: Date.now() - started });
    });
  });
}

/** The CLI with only the variables named (plus the ones that keep it from probing Docker). */
function fencecheck(args: string[], vars: Record<string, string>) {
  const env: NodeJS.ProcessEnv = { ...process.env, FENCECHECK_VALKEY_PROVIDER: 'auto', FENCECHECK_DOCKER_PROBE: process.env.FENCECHECK_DOCKER_PROBE ?? 'not probed (test)' };
  for (const k of ['FENCECHECK_VALKEY_URL', 'FENCECHECK_VALKEY_CLUSTER', 'FENCECHECK_ALLOW_DESTRUCTIVE']) delete env[k];
  return run(process.execPath, [join(projectRoot, 'bin/fencecheck.mjs'), ...args], { ...env, ...vars });
}

// ---------------------------------------------------------------------------------------------
// What must survive.

const TYPES = ['string', 'hash', 'list', 'set', 'zset', 'stream'] as const;

async function writeUnrelated(c: Redis | Cluster, n: number): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < n; i++) {
    const type = TYPES[i % TYPES.length]!;
    const k = `user:${type}:${i}`;
    if (type === 'string') await c.set(k, `value-${i}`);
    if (type === 'hash') await c.hset(k, { a: String(i), b: 'x' });
    if (type === 'list') await c.rpush(k, 'a', String(i));
    if (type === 'set') await c.sadd(k, 'a', String(i));
    if (type === 'zset') await c.zadd(k, i, 'a', i + 1, 'b');
    if (type === 'stream') await c.xadd(k, '*', 'f', String(i));
    if (i % 2 === 0) await c.pexpire(k, 3_600_000);
    // A counter that never expires, like the fencing generation counters.
    keys.push(k);
  }
  await c.set('buzz:tunnel:{user:s1}:generation', '7');
  keys.push('buzz:tunnel:{user:s1}:generation');
  return keys;
}

async function snapshot(c: Redis | Cluster, keys: readonly string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const k of keys) {
    const [dump, pttl] = await Promise.all([c.dumpBuffer(k), c.pttl(k)]);
    out[k] = `${dump === null ? 'MISSING' : dump.toString('hex')} ttl:${pttl > 0 ? 'yes' : String(pttl)}`;
  }
  return out;
}

/** CLUSTER SHARDS without the fields that move on their own (replication offsets, health). */
function normalizeShards(v: unknown): unknown {
  if (v instanceof Map) v = Object.fromEntries(v);
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (let i = 0; i < v.length; i++) {
      if ((v[i] === 'replication-offset' || v[i] === 'health') && i + 1 < v.length) {
        i++;
        continue;
      }
      out.push(normalizeShards(v[i]));
    }
    return out;
  }
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => k !== 'replication-offset' && k !== 'health')
        .map(([k, x]) => [k, normalizeShards(x)]),
    );
  }
  return v;
}

const USER_SCRIPT = "return 'the user script'";

interface World {
  keys: Record<string, string>;
  config: string[];
  shards: string;
  scripts: number[];
  dbsize: number;
}

// ---------------------------------------------------------------------------------------------

let clusterPorts: number[] = [];
let standalonePort = 0;
let scratchPort = 0;
let cluster: Cluster;
let standalone: Redis;
let clusterKeys: string[] = [];
let standaloneKeys: string[] = [];

async function world(): Promise<{ cluster: World; standalone: World }> {
  const nodes = clusterPorts.map((port) => new Redis({ port, host: '127.0.0.1' }));
  try {
    return {
      cluster: {
        keys: await snapshot(cluster, clusterKeys),
        config: await Promise.all(nodes.map(async (n) => (await n.config('GET', 'cluster-allow-replica-migration')).join('='))),
        shards: JSON.stringify(normalizeShards(await nodes[0]!.call('CLUSTER', 'SHARDS'))),
        scripts: await Promise.all(nodes.map(async (n) => Number(((await n.script('EXISTS', userSha)) as number[])[0]))),
        dbsize: (await Promise.all(nodes.map((n) => n.dbsize()))).reduce((a, b) => a + b, 0),
      },
      standalone: {
        keys: await snapshot(standalone, standaloneKeys),
        config: [(await standalone.config('GET', 'maxmemory-samples')).join('=')],
        shards: '',
        scripts: [Number(((await standalone.script('EXISTS', userSha)) as number[])[0])],
        dbsize: await standalone.dbsize(),
      },
    };
  } finally {
    nodes.forEach((n) => n.disconnect());
  }
}

let userSha = '';

/** No key under any fencecheck run prefix, on any node of the user's servers. */
async function leftovers(): Promise<string[]> {
  const out: string[] = [];
  for (const port of [...clusterPorts, standalonePort]) {
    const n = new Redis({ port, host: '127.0.0.1' });
    try {
      let cursor = '0';
      do {
        const [next, keys] = await n.scan(cursor, 'MATCH', 'fencecheck:*', 'COUNT', 1000);
        out.push(...keys.map((k) => `${port}:${k}`));
        cursor = next;
      } while (cursor !== '0');
    } finally {
      n.disconnect();
    }
  }
  return out;
}

let baseline: Awaited<ReturnType<typeof world>>;

beforeAll(async () => {
  const nodes = await Promise.all([0, 1, 2].map(() => userServer({ cluster: true })));
  clusterPorts = nodes.map((n) => n.port);
  const created = await run('valkey-cli', ['--cluster', 'create', ...clusterPorts.map((p) => `127.0.0.1:${p}`), '--cluster-yes'], process.env, 60_000);
  expect(created.code, created.out + created.err).toBe(0);
  await waitUntil(
    'the user cluster to be ok',
    async () => {
      for (const p of clusterPorts) {
        const c = new Redis({ port: p, host: '127.0.0.1' });
        try {
          if (!/cluster_state:ok/.test(String(await c.call('CLUSTER', 'INFO')))) return false;
        } finally {
          c.disconnect();
        }
      }
      return true;
    },
    30_000,
  );
  standalonePort = (await userServer()).port;
  scratchPort = (await userServer()).port;
  cluster = new Cluster(clusterPorts.map((port) => ({ host: '127.0.0.1', port })));
  cluster.on('error', () => {});
  standalone = new Redis({ port: standalonePort, host: '127.0.0.1' });
  // A cluster-enabled primary refuses writes for a moment after it starts.
  await waitUntil(
    'the user cluster to take writes',
    () =>
      cluster.set('user:probe', '1').then(
        () => true,
        () => false,
      ),
    30_000,
  );
  await cluster.del('user:probe');
  clusterKeys = await writeUnrelated(cluster, 60);
  standaloneKeys = await writeUnrelated(standalone, 60);
  userSha = String(await standalone.script('LOAD', USER_SCRIPT));
  for (const p of clusterPorts) {
    const c = new Redis({ port: p, host: '127.0.0.1' });
    await c.script('LOAD', USER_SCRIPT);
    c.disconnect();
  }
  baseline = await world();
  expect(Object.values(baseline.cluster.keys).some((v) => v.startsWith('MISSING'))).toBe(false);
  expect(baseline.cluster.dbsize).toBe(61);
  expect(baseline.cluster.scripts).toEqual([1, 1, 1]);
}, 120_000);

afterAll(async () => {
  cluster?.disconnect();
  standalone?.disconnect();
  await stopSpawned();
});

const ENV_KEYS = ['FENCECHECK_VALKEY_URL', 'FENCECHECK_VALKEY_CLUSTER', 'FENCECHECK_ALLOW_DESTRUCTIVE'] as const;
const saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
afterEach(() => {
  for (const k of ENV_KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

async function expectUntouched(): Promise<void> {
  const now = await world();
  expect(now.cluster.keys).toEqual(baseline.cluster.keys);
  expect(now.standalone.keys).toEqual(baseline.standalone.keys);
  expect(now.cluster.config).toEqual(['cluster-allow-replica-migration=yes', 'cluster-allow-replica-migration=yes', 'cluster-allow-replica-migration=yes']);
  expect(now.cluster.config).toEqual(baseline.cluster.config);
  expect(now.standalone.config).toEqual(baseline.standalone.config);
  expect(now.cluster.shards).toBe(baseline.cluster.shards);
  expect(now.cluster.scripts).toEqual([1, 1, 1]);
  expect(now.standalone.scripts).toEqual([1]);
  expect(now.cluster.dbsize).toBe(baseline.cluster.dbsize);
  expect(now.standalone.dbsize).toBe(baseline.standalone.dbsize);
  expect(await leftovers()).toEqual([]);
}

// The spellings of "this machine" that reach the user's servers (bound to 127.0.0.1 and 127.0.0.2).
const SPELLINGS = ['127.0.0.1', '127.1', 'localhost', '127.0.0.2'] as const;

describe('a loopback cluster and node the harness did not start', () => {
  it.each(SPELLINGS)('%s: external, not owned, per-run prefix; every destructive path refused before sending', async (host) => {
    process.env.FENCECHECK_VALKEY_CLUSTER = `${host}:${clusterPorts[0]}`;
    process.env.FENCECHECK_VALKEY_URL = `${host}:${standalonePort}`;
    const c = await startTopology({ kind: 'cluster', shards: 3 }, { provider: 'auto' });
    const s = await startTopology({ kind: 'standalone' }, { provider: 'auto' });
    try {
      for (const t of [c, s]) {
        expect(t.provider).toBe('external');
        expect(t.owned).toBe(false);
        expect(t.destructiveAllowed).toBe(false);
        expect(t.keyPrefix).toMatch(/^fencecheck:[0-9a-z]+:$/);
        await expect(t.flush()).rejects.toBeInstanceOf(UnsafeOperationError);
        const client = t.client();
        try {
          await expect(client.flushall()).rejects.toThrow(/^refused: FLUSHALL/);
          await expect(client.call('SCRIPT', 'FLUSH')).rejects.toThrow(/^refused: SCRIPT FLUSH/);
          await expect(client.call('CONFIG', 'SET', 'maxmemory-samples', '7')).rejects.toThrow(/^refused: CONFIG SET/);
          await expect(client.call('FUNCTION', 'FLUSH')).rejects.toThrow(/^refused: FUNCTION FLUSH/);
          await client.set('mine', '1');
        } finally {
          await closeClient(client);
        }
      }
      // The door refuses before it sends anything (not even CLUSTER MYID).
      const err = await createDoor(c).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NotOwnedError);
      expect(err).toBeInstanceOf(ValkeyUnavailableError);
      expect((err as Error).message).toMatch(/needs an owned topology/);
    } finally {
      await c.stop();
      await s.stop();
    }
    await expectUntouched();
  });

  it('props --topology door: exit 2 "needs an owned topology", also with FENCECHECK_ALLOW_DESTRUCTIVE=1; nothing touched', async () => {
    for (const [host, extra] of [
      ['127.0.0.1', {}],
      ['127.1', {}],
      ['127.0.0.1', { FENCECHECK_ALLOW_DESTRUCTIVE: '1' }],
    ] as const) {
      const r = await fencecheck(['props', '--topology', 'door', '--runs', '2', '--door-runs', '2'], { FENCECHECK_VALKEY_CLUSTER: `${host}:${clusterPorts[0]}`, ...extra });
      expect(r.code, r.out + r.err).toBe(2);
      expect(r.out + r.err).toMatch(/needs an owned topology/);
      expect(r.err).not.toMatch(/^\s+at /m); // no stack trace
      expect(r.err).not.toMatch(/fencecheck: destructive:/); // nothing destructive was even attempted
      await expectUntouched();
    }
    const both = await fencecheck(['props', '--topology', 'both', '--runs', '1', '--door-runs', '1', '--json'], {
      FENCECHECK_VALKEY_CLUSTER: `127.0.0.1:${clusterPorts[0]}`,
      FENCECHECK_VALKEY_URL: `127.0.0.1:${standalonePort}`,
    });
    expect(both.code, both.out + both.err).toBe(2);
    const report = JSON.parse(both.out) as { status: string; reason: string };
    expect(report.status).toBe('not-run');
    expect(report.reason).toMatch(/needs an owned topology/);
    await expectUntouched();
  });

  it('props --topology standalone --runs 3 on the external node runs, and leaves nothing behind', async () => {
    const r = await fencecheck(['props', '--topology', 'standalone', '--runs', '3'], {
      FENCECHECK_VALKEY_URL: `127.0.0.1:${standalonePort}`,
      FENCECHECK_VALKEY_CLUSTER: `127.0.0.1:${clusterPorts[0]}`,
    });
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).toMatch(/props: passed/);
    await expectUntouched();
  });

  it('the limiter: SCRIPT FLUSH, server-wide counters and lost-reply checks are not run, with the reason', async () => {
    process.env.FENCECHECK_VALKEY_CLUSTER = `127.1:${clusterPorts[0]}`;
    const t = await startTopology({ kind: 'cluster', shards: 3 }, { provider: 'external' });
    try {
      const out = await runInvariants(t, ['script_flush_fallback', 'connection_failure_no_resend', 'duplicate_key_refused', 'first_denial_second_untouched']);
      const by = Object.fromEntries(out.map((o) => [o.name, o]));
      expect(by.script_flush_fallback!.status).toBe('not-run');
      expect(by.script_flush_fallback!.detail).toMatch(/needs an owned topology/);
      expect(by.connection_failure_no_resend!.status).toBe('not-run');
      expect(by.connection_failure_no_resend!.detail).toMatch(/needs an owned topology/);
      expect(by.duplicate_key_refused!.status).toBe('not-run');
      // A check that needs no ownership runs, under the prefix.
      expect(by.first_denial_second_untouched!.status, by.first_denial_second_untouched!.detail).toBe('passed');
    } finally {
      await t.stop();
    }
    await expectUntouched();
  });

  it('stop() removes every key under the run prefix on every primary (counters, TTL keys, >1 SCAN batch)', async () => {
    process.env.FENCECHECK_VALKEY_CLUSTER = `localhost:${clusterPorts[1]}`;
    process.env.FENCECHECK_VALKEY_URL = `127.0.0.2:${standalonePort}`;
    for (const spec of [{ kind: 'cluster', shards: 3 }, { kind: 'standalone' }] as const) {
      const t = await startTopology(spec, { provider: 'external' });
      const c = t.client();
      try {
        // Counters without a TTL over all slots (more than one SCAN batch per node), leases with one.
        for (let i = 0; i < 2500; i += 250) await Promise.all(Array.from({ length: 250 }, (_, j) => c.incr(`buzz:tunnel:{c${i + j}:s}:generation`)));
        await Promise.all(Array.from({ length: 50 }, (_, i) => c.set(`lease:${i}`, 'x', 'PX', 600_000)));
        await c.hset('a-hash', { f: '1' });
      } finally {
        await closeClient(c);
      }
      const before = await leftovers();
      expect(before.length).toBe(2551);
      if (spec.kind === 'cluster') expect(new Set(before.map((k) => k.split(':')[0])).size).toBe(3); // on every primary
      await t.stop();
      expect(await leftovers()).toEqual([]);
      await t.stop(); // idempotent
    }
    await expectUntouched();
  });

  it('FENCECHECK_ALLOW_DESTRUCTIVE=1: still not owned; each destructive command is named on stderr before it runs', async () => {
    // On a scratch node of the user's: here the opt-in really does flush.
    const scratch = new Redis({ port: scratchPort, host: '127.0.0.1' });
    await scratch.set('scratch', '1');
    process.env.FENCECHECK_VALKEY_URL = `127.0.0.1:${scratchPort}`;
    process.env.FENCECHECK_ALLOW_DESTRUCTIVE = '1';
    const said: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      said.push(String(chunk));
      return (write as (c: unknown, ...r: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stderr.write;
    const t = await startTopology({ kind: 'standalone' }, { provider: 'external' });
    try {
      expect(t.owned).toBe(false);
      expect(t.destructiveAllowed).toBe(true);
      expect(t.keyPrefix).not.toBe('');
      const c = t.client();
      try {
        expect(await c.call('CONFIG', 'SET', 'maxmemory-samples', '5')).toBe('OK');
      } finally {
        await closeClient(c);
      }
      await t.flush();
      expect(await scratch.get('scratch')).toBeNull();
      // On a Cluster client the notice names the node the command is routed to (the value is the
      // default, so the user's cluster ends up as it was).
      process.env.FENCECHECK_VALKEY_CLUSTER = `127.0.0.1:${clusterPorts[0]}`;
      const ct = await startTopology({ kind: 'cluster', shards: 3 }, { provider: 'external' });
      const cc = ct.client();
      try {
        expect(ct.owned).toBe(false);
        expect(await cc.call('CONFIG', 'SET', 'maxmemory-samples', '5')).toBe('OK');
      } finally {
        await closeClient(cc);
        await ct.stop();
      }
      // The door still needs ownership.
      await expect(createDoor({ ...t, spec: { kind: 'cluster', shards: 3 } })).rejects.toThrow(/needs an owned topology.*does not make it owned/);
    } finally {
      process.stderr.write = write;
      await t.stop();
      scratch.disconnect();
    }
    const lines = said.join('').split('\n');
    expect(lines).toContain(`fencecheck: destructive: CONFIG SET on 127.0.0.1:${scratchPort} (FENCECHECK_ALLOW_DESTRUCTIVE=1)`);
    expect(lines).toContain(`fencecheck: destructive: FLUSHALL on 127.0.0.1:${scratchPort} (FENCECHECK_ALLOW_DESTRUCTIVE=1)`);
    expect(lines.filter((l) => new RegExp(`^fencecheck: destructive: CONFIG SET on 127\\.0\\.0\\.1:(${clusterPorts.join('|')}) \\(FENCECHECK_ALLOW_DESTRUCTIVE=1\\)$`).test(l))).toHaveLength(1);
    await expectUntouched();
  });
});

/** A node's explicit cluster bus port, as CLUSTER MEET's optional argument. */
async function busPortOf(port: number): Promise<number[]> {
  const c = nodeClient({ host: '127.0.0.1', port });
  try {
    const bus = Number((await c.config('GET', 'cluster-port'))[1]);
    return bus > 0 ? [bus] : [];
  } finally {
    await closeClient(c);
  }
}

describe('a topology the harness started, named through the environment', () => {
  let owned: Topology[] = [];
  afterAll(async () => {
    await Promise.all(owned.map((t) => t.stop()));
  });

  it('is owned (every node is in the registry with its run id): no prefix, flush allowed', async () => {
    owned = await Promise.all([startTopology({ kind: 'standalone' }, { provider: 'native' }), startTopology({ kind: 'cluster', shards: 1 }, { provider: 'native' })]);
    const [s, c] = owned as [Topology, Topology];
    process.env.FENCECHECK_VALKEY_URL = `127.0.0.1:${s.nodes[0]!.port}`;
    process.env.FENCECHECK_VALKEY_CLUSTER = `127.0.0.1:${c.nodes[0]!.port}`;
    const es = await startExternal({ kind: 'standalone' });
    const ec = await startExternal({ kind: 'cluster', shards: 1 });
    for (const t of [es, ec]) {
      expect(t.owned).toBe(true);
      expect(t.destructiveAllowed).toBe(true);
      expect(t.keyPrefix).toBe('');
    }
    const direct = nodeClient(s.nodes[0]!);
    try {
      await direct.set('k', '1');
      await es.flush();
      expect(await direct.get('k')).toBeNull();
    } finally {
      await closeClient(direct);
    }
  });

  it('a harness-started seed whose cluster also holds a node the harness did not start is not owned', async () => {
    // Ownership is decided over every node CLUSTER NODES lists, not over the seeds given.
    const mixed = await startTopology({ kind: 'cluster', shards: 1 }, { provider: 'native' });
    owned.push(mixed);
    const stranger = await userServer({ cluster: true });
    const seed = mixed.nodes[0]!;
    const s = nodeClient({ host: '127.0.0.1', port: stranger.port });
    try {
      await s.call('CLUSTER', 'MEET', seed.host, seed.port, ...(await busPortOf(seed.port)));
      const seen = nodeClient(seed);
      try {
        await waitUntil('the seed to know the stranger', async () => parseClusterNodes(String(await seen.call('CLUSTER', 'NODES'))).length === 2, 20_000);
      } finally {
        await closeClient(seen);
      }
    } finally {
      await closeClient(s);
    }
    process.env.FENCECHECK_VALKEY_CLUSTER = `127.0.0.1:${seed.port}`;
    const t = await startExternal({ kind: 'cluster', shards: 2 }); // the slot-less stranger counts as a primary
    expect(t.owned).toBe(false);
    expect(t.keyPrefix).not.toBe('');
    await t.stop();
  });

  it("while harness servers run and are registered, the user's node is still not owned", async () => {
    // Ownership is a live registry record of that port with that node's run id, never "some harness server runs".
    process.env.FENCECHECK_VALKEY_URL = `127.0.0.1:${standalonePort}`;
    const t = await startExternal({ kind: 'standalone' });
    expect(t.owned).toBe(false);
    await t.stop();
  });
});

describe('secrets', () => {
  const PASSWORD = 'pw-Sx9-never-print';
  let authPort = 0;
  beforeAll(async () => {
    authPort = (await userServer({ args: ['--requirepass', PASSWORD] })).port;
    const c = new Redis({ port: authPort, host: '127.0.0.1', password: PASSWORD });
    await c.call('ACL', 'SETUSER', 'alice', 'on', `>${PASSWORD}`, '~*', '+@all');
    await c.set('user:auth', 'kept');
    c.disconnect();
  });

  it('parseEndpoint takes user:pass@ and :pass@; maskSecrets hides the password everywhere', () => {
    expect(parseEndpoint(`redis://alice:${PASSWORD}@127.0.0.1:6379`)).toEqual({ host: '127.0.0.1', port: 6379, username: 'alice', password: PASSWORD });
    expect(parseEndpoint(`redis://:${PASSWORD}@h:1`)).toEqual({ host: 'h', port: 1, password: PASSWORD });
    expect(parseEndpoint('redis://:p%40ss@h:1')).toEqual({ host: 'h', port: 1, password: 'p@ss' });
    expect(parseEndpoint('valkey://u:a@b@h:1/')).toEqual({ host: 'h', port: 1, username: 'u', password: 'a@b' });
    expect(() => parseEndpoint(`redis://:${PASSWORD}@nonsense`)).toThrow(/not a valkey endpoint/);
    expect(() => parseEndpoint(`redis://:${PASSWORD}@nonsense`)).not.toThrow(new RegExp(PASSWORD));
    expect(maskSecrets(`x redis://alice:${PASSWORD}@h:1,redis://:${PASSWORD}@g:2 y`)).toBe('x redis://alice:***@h:1,redis://:***@g:2 y');
    expect(maskSecrets(`FENCECHECK_VALKEY_URL=alice:${PASSWORD}@h:1`)).toBe('FENCECHECK_VALKEY_URL=alice:***@h:1');
    expect(maskSecrets(`'redis://${PASSWORD}@h:1'`)).toBe("'redis://***@h:1'");
    expect(maskSecrets('plain text: a@b, host:port')).toBe('plain text: a@b, host:port');
  });

  it('an endpoint with credentials works; no message, --json report or stderr line carries the password', async () => {
    for (const url of [`redis://:${PASSWORD}@127.0.0.1:${authPort}`, `redis://alice:${PASSWORD}@127.0.0.1:${authPort}`]) {
      process.env.FENCECHECK_VALKEY_URL = url;
      const t = await startExternal({ kind: 'standalone' });
      const c = t.client();
      try {
        expect(await c.set('x', '1')).toBe('OK');
      } finally {
        await closeClient(c);
        await t.stop();
      }
    }
    const outputs: string[] = [];
    const ok = await fencecheck(['props', '--topology', 'standalone', '--runs', '1', '--json'], { FENCECHECK_VALKEY_URL: `redis://alice:${PASSWORD}@127.0.0.1:${authPort}` });
    expect(ok.code, ok.out + ok.err).toBe(0);
    outputs.push(ok.out, ok.err);
    const wrong = `wrong-${PASSWORD}`;
    for (const args of [
      ['props', '--topology', 'standalone', '--runs', '1', '--json'],
      ['props', '--topology', 'standalone', '--runs', '1'],
    ]) {
      const r = await fencecheck(args, { FENCECHECK_VALKEY_URL: `redis://alice:${wrong}@127.0.0.1:${authPort}` });
      expect(r.code, r.out + r.err).toBe(2);
      expect(r.out + r.err).toMatch(/redis:\/\/alice:\*\*\*@127\.0\.0\.1/);
      outputs.push(r.out, r.err);
    }
    const bad = await fencecheck(['props', '--topology', 'standalone', '--runs', '1', '--json'], { FENCECHECK_VALKEY_URL: `redis://:${wrong}@127.0.0.1:notaport` });
    outputs.push(bad.out, bad.err);
    // A malformed endpoint is bad input, refused before anything starts (it was "not run", 2).
    expect(bad.code).toBe(3);
    const gate = await fencecheck(['gate', '--check', 'advance', '--url', `redis://:${wrong}@127.0.0.1:${authPort}`, '--target', 'A', '--pods', 'p1=A', '--json'], {});
    expect(gate.code, gate.out + gate.err).toBe(2);
    outputs.push(gate.out, gate.err);
    const gateOk = await fencecheck(['gate', '--check', 'advance', '--url', `redis://:${PASSWORD}@127.0.0.1:${authPort}`, '--target', 'A', '--pods', 'p1=A'], {});
    expect([0, 1], gateOk.out + gateOk.err).toContain(gateOk.code);
    outputs.push(gateOk.out, gateOk.err);
    const usage = await fencecheck(['slot', '--check', '--node', `redis://:${wrong}@nonsense`, 'k'], {});
    expect(usage.code).toBe(64);
    outputs.push(usage.out, usage.err);
    for (const o of outputs) {
      expect(o).not.toContain(PASSWORD);
    }
    const c = new Redis({ port: authPort, host: '127.0.0.1', password: PASSWORD });
    expect(await c.get('user:auth')).toBe('kept');
    expect(await c.keys('fencecheck:*')).toEqual([]);
    c.disconnect();
  });
});

it('the destructive list covers the script and function caches', () => {
  expect(destructiveReason('SCRIPT', ['FLUSH'])).toMatch(/SCRIPT FLUSH/);
  expect(destructiveReason('script', ['kill'])).toMatch(/SCRIPT KILL/);
  expect(destructiveReason('FUNCTION', ['FLUSH', 'SYNC'])).toMatch(/FUNCTION FLUSH/);
  expect(destructiveReason('FUNCTION', ['DELETE', 'lib'])).toMatch(/FUNCTION DELETE/);
  expect(destructiveReason('FUNCTION', ['RESTORE', 'x'])).toMatch(/FUNCTION RESTORE/);
  expect(destructiveReason('SCRIPT', ['LOAD', 'return 1'])).toBeNull();
  expect(destructiveReason('SCRIPT', ['EXISTS', 'x'])).toBeNull();
  expect(destructiveReason('FUNCTION', ['LIST'])).toBeNull();
  expect(prefixPattern('fencecheck:a*b?:')).toBe('fencecheck:a\\*b\\?:*');
  return expect(removeKeysUnder([], '')).rejects.toThrow(/empty prefix/);
});
