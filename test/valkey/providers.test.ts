import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { nodeClient, startTopology, UnsafeOperationError, ValkeyUnavailableError, type Topology } from '../../src/valkey/index.js';
import { evalScript, luaScript } from '../../src/valkey/scripts/index.js';
import { destructiveReason } from '../../src/valkey/client.js';
import { fallbackAudible } from '../../src/valkey/start.js';
import { projectRoot } from '../../src/core/project-root.js';
import { isLoopback, parseEndpoint } from '../../src/valkey/external.js';

const ENV_KEYS = ['FENCECHECK_VALKEY_URL', 'FENCECHECK_VALKEY_CLUSTER', 'FENCECHECK_ALLOW_DESTRUCTIVE', 'FENCECHECK_DOCKER_PROBE'] as const;
const saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
afterEach(() => {
  for (const k of ENV_KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

// These two describe a machine WITHOUT a container engine (like CI here); with Docker they do not apply.
const dockerPresent = Boolean(process.env.DOCKER_HOST) || existsSync('/var/run/docker.sock');

describe('testcontainers provider without a container engine', () => {
  it.skipIf(dockerPresent)('fails with a clear ValkeyUnavailableError', async () => {
    const err = await startTopology({ kind: 'standalone' }, { provider: 'testcontainers' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValkeyUnavailableError);
    expect((err as Error).message).toMatch(/no container engine answers/);
  });

  it.skipIf(dockerPresent)("'auto' falls back to native and says why", async () => {
    delete process.env.FENCECHECK_DOCKER_PROBE;
    const said: string[] = [];
    const t = await startTopology({ kind: 'standalone' }, { provider: 'auto', log: (l) => said.push(l) });
    try {
      expect(t.provider).toBe('native');
      expect(said.join('\n')).toMatch(/no container engine.*using native valkey-server/);
    } finally {
      await t.stop();
    }
  });

  it.skipIf(dockerPresent)('the fallback line is quiet by default; FENCECHECK_VALKEY_PROVIDER=auto or FENCECHECK_VERBOSE=1 prints it', () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const k of ['FENCECHECK_VALKEY_PROVIDER', 'FENCECHECK_VERBOSE', 'FENCECHECK_DOCKER_PROBE', 'FENCECHECK_VALKEY_URL', 'FENCECHECK_VALKEY_CLUSTER']) delete env[k];
    const run = (extra: NodeJS.ProcessEnv) => {
      const r = spawnSync(process.execPath, [join(projectRoot, 'bin/fencecheck.mjs'), 'topology', 'start', '--kind', 'standalone', '--hold', '0', '--json'], {
        cwd: projectRoot,
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...env, ...extra },
      });
      expect(r.status).toBe(0);
      return r.stderr;
    };
    expect(run({})).not.toMatch(/provider auto/);
    expect(run({ FENCECHECK_VERBOSE: '1' })).toMatch(/^fencecheck: provider auto: testcontainers: no container engine answers.*; using native valkey-server$/m);
    expect(run({ FENCECHECK_VALKEY_PROVIDER: 'auto' })).toMatch(/^fencecheck: provider auto: .*using native valkey-server$/m);
    expect(fallbackAudible({})).toBe(false);
    expect(fallbackAudible({ FENCECHECK_VERBOSE: '0', FENCECHECK_VALKEY_PROVIDER: 'native' })).toBe(false);
  });
});

describe('external provider', () => {
  let standalone: Topology;
  let cluster: Topology;
  let direct: Redis;
  beforeAll(async () => {
    [standalone, cluster] = await Promise.all([startTopology({ kind: 'standalone' }, { provider: 'native' }), startTopology({ kind: 'cluster', shards: 1 }, { provider: 'native' })]);
    const n = standalone.nodes[0]!;
    direct = nodeClient(n);
  });
  afterAll(async () => {
    direct?.disconnect();
    await standalone?.stop();
    await cluster?.stop();
  });

  it('parses endpoints and recognises loopback', () => {
    expect(parseEndpoint('redis://10.0.0.5:6379')).toEqual({ host: '10.0.0.5', port: 6379 });
    expect(parseEndpoint('valkey.internal:7000')).toEqual({ host: 'valkey.internal', port: 7000 });
    expect(() => parseEndpoint('nonsense')).toThrow(/not a valkey endpoint/);
    expect(isLoopback('127.0.0.1')).toBe(true);
    expect(isLoopback('::1')).toBe(true);
    expect(isLoopback('10.0.0.5')).toBe(false);
    expect(isLoopback('0.0.0.0')).toBe(false);
  });

  it('names exactly the destructive commands', () => {
    expect(destructiveReason('flushall', [])).toMatch(/FLUSHALL/);
    expect(destructiveReason('FLUSHDB', [])).toMatch(/FLUSHDB/);
    expect(destructiveReason('config', ['SET', 'maxmemory', '1'])).toMatch(/CONFIG SET/);
    expect(destructiveReason('cluster', ['RESET'])).toMatch(/CLUSTER RESET/);
    expect(destructiveReason('config', ['GET', 'maxmemory'])).toBeNull();
    expect(destructiveReason('cluster', ['KEYSLOT', 'k'])).toBeNull();
    expect(destructiveReason('evalsha', ['x', '0'])).toBeNull();
  });

  it('a server the harness started, named by its URL, is owned (registry and run id): no prefix, flush allowed', async () => {
    const n = standalone.nodes[0]!;
    process.env.FENCECHECK_VALKEY_URL = `redis://${n.host}:${n.port}`;
    const t = await startTopology({ kind: 'standalone' }, { provider: 'external' });
    expect(t.provider).toBe('external');
    expect(t.owned).toBe(true);
    expect(t.keyPrefix).toBe('');
    await direct.set('ext:owned', '1');
    await t.flush();
    expect(await direct.get('ext:owned')).toBeNull();
    await t.stop();
  });

  // 0.0.0.0 reaches the same server but no registry record names that address: external, whatever it reaches.
  it('an endpoint the harness cannot prove it started: per-run prefix, destructive commands refused before sending, flush throws', async () => {
    const n = standalone.nodes[0]!;
    process.env.FENCECHECK_VALKEY_URL = `0.0.0.0:${n.port}`;
    const t = await startTopology({ kind: 'standalone' }, { provider: 'external' });
    expect(t.owned).toBe(false);
    expect(t.keyPrefix).toMatch(/^fencecheck:[0-9a-z]+:$/);
    expect(t.keyPrefix).not.toMatch(/[{}]/); // a brace would become every key's hash tag
    await direct.set('someone-elses-data', 'precious');
    await expect(t.flush()).rejects.toBeInstanceOf(UnsafeOperationError);
    const c = t.client();
    try {
      await expect(c.flushall()).rejects.toBeInstanceOf(UnsafeOperationError);
      await expect(c.call('CONFIG', 'SET', 'maxmemory', '1mb')).rejects.toThrow(/refused: CONFIG SET/);
      expect(await direct.get('someone-elses-data')).toBe('precious');
      expect(await direct.config('GET', 'maxmemory')).toEqual(['maxmemory', '0']);
      // Keys (also a script's KEYS) land under the prefix.
      await c.set('a', '1');
      const s = luaScript('get', "return redis.call('GET', KEYS[1])");
      expect(await evalScript(c, s, ['a'], [])).toBe('1');
      expect(await direct.get(`${t.keyPrefix}a`)).toBe('1');
      expect(await direct.get('a')).toBeNull();
    } finally {
      c.disconnect();
    }
    process.env.FENCECHECK_ALLOW_DESTRUCTIVE = '1';
    // The opt-in allows destructive commands (each named before it runs) but owns nothing: the prefix and its cleanup stay.
    const opted = await startTopology({ kind: 'standalone' }, { provider: 'external' });
    expect(opted.owned).toBe(false);
    expect(opted.destructiveAllowed).toBe(true);
    expect(opted.keyPrefix).toMatch(/^fencecheck:/);
    await opted.stop();
  });

  it('a cluster seed list; a shard-count mismatch and a missing variable are ValkeyUnavailableError', async () => {
    const n = cluster.nodes[0]!;
    process.env.FENCECHECK_VALKEY_CLUSTER = `${n.host}:${n.port}`;
    const t = await startTopology({ kind: 'cluster', shards: 1 }, { provider: 'external' });
    expect(t.nodes.map((x) => x.port)).toEqual([n.port]);
    const c = t.client();
    expect(await c.set('x', '1')).toBe('OK');
    c.disconnect();
    await expect(startTopology({ kind: 'cluster', shards: 3 }, { provider: 'external' })).rejects.toThrow(/has 1 shard/);
    delete process.env.FENCECHECK_VALKEY_CLUSTER;
    await expect(startTopology({ kind: 'cluster', shards: 1 }, { provider: 'external' })).rejects.toBeInstanceOf(ValkeyUnavailableError);
    // 'auto' picks external when the variable is set.
    process.env.FENCECHECK_VALKEY_CLUSTER = `${n.host}:${n.port}`;
    expect((await startTopology({ kind: 'cluster', shards: 1 }, { provider: 'auto' })).provider).toBe('external');
  });
});
