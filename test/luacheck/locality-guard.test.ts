import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from 'ioredis';
import { startTopology, type Topology } from '../../src/valkey/index.js';
import { createClient } from '../../src/valkey/client.js';
import { ENV_LOCALITY_GUARD, installLocalityGuard, LocalityGuardError } from '../../src/valkey/locality-guard.js';
import { evalScript, isServerReply, luaScript } from '../../src/valkey/scripts/index.js';
import { keySlot } from '../../src/valkey/slots.js';

/**
 * The runtime locality guard on a real 3-shard cluster: cross-slot MGET, pipelines, transactions and
 * script calls are refused before they are sent, naming the keys and their slots; one-slot ones run.
 */
let topology: Topology;
let guarded: Cluster;
let plain: Cluster;

const A = 'guard:a'; // slot 7367
const B = 'guard:b'; // another slot
const TAGGED = ['{guard}:a', '{guard}:b'] as const;

beforeAll(async () => {
  topology = await startTopology({ kind: 'cluster', shards: 3 }, { provider: 'native' });
  const seeds = topology.nodes.filter((n) => n.role === 'primary').map((n) => ({ host: n.host, port: n.port }));
  const prev = process.env[ENV_LOCALITY_GUARD];
  process.env[ENV_LOCALITY_GUARD] = '1';
  guarded = createClient({ kind: 'cluster', seeds }) as Cluster; // the createClient hook
  process.env[ENV_LOCALITY_GUARD] = '0';
  plain = createClient({ kind: 'cluster', seeds }) as Cluster;
  if (prev === undefined) delete process.env[ENV_LOCALITY_GUARD];
  else process.env[ENV_LOCALITY_GUARD] = prev;
  await guarded.set(TAGGED[0], '1');
  await guarded.set(TAGGED[1], '2');
});
afterAll(async () => {
  guarded?.disconnect();
  plain?.disconnect();
  await topology?.stop();
});

const naming = (...keys: string[]) => new RegExp(`^CROSSSLOT \\(fencecheck locality guard\\).*${keys.map((k) => `${k.replace(/[{}]/g, '\\$&')} \\(slot ${keySlot(k)}\\)`).join('.*')}`);

describe('runtime locality guard (FENCECHECK_LOCALITY_GUARD=1) on a 3-shard cluster', () => {
  it('the two sample keys are in different slots', () => {
    expect(keySlot(A)).not.toBe(keySlot(B));
    expect(keySlot(TAGGED[0])).toBe(keySlot(TAGGED[1]));
  });

  it('refuses a cross-slot MGET naming the keys and slots, and lets a one-slot MGET through', async () => {
    const err = await guarded.mget(A, B).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LocalityGuardError);
    expect((err as Error).message).toMatch(naming(A, B));
    expect(isServerReply(err)).toBe(true); // handled like the server's own CROSSSLOT
    expect(await guarded.mget(...TAGGED)).toEqual(['1', '2']);
  });

  it('refuses a pipeline with a cross-slot command, a cross-slot transaction; single-slot ones run', async () => {
    await expect(guarded.pipeline().get(TAGGED[0]).mget(A, B).exec()).rejects.toThrow(naming(A, B));
    await expect(guarded.multi().set(TAGGED[0], '1').get(A).exec()).rejects.toThrow(/transaction \(MULTI\/EXEC\): keys in 2 slots/);
    expect(
      await guarded
        .pipeline()
        .get(TAGGED[0])
        .mget(...TAGGED)
        .exec(),
    ).toEqual([
      [null, '1'],
      [null, ['1', '2']],
    ]);
    expect(await guarded.multi().get(TAGGED[0]).get(TAGGED[1]).exec()).toEqual([
      [null, '1'],
      [null, '2'],
    ]);
  });

  it('refuses evalsha with KEYS in two slots (before NOSCRIPT, as the server), and runs a one-slot one', async () => {
    const two = luaScript('two', "return {redis.call('GET', KEYS[1]), redis.call('GET', KEYS[2])}");
    const err = await evalScript(guarded, two, [A, B], []).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(naming(A, B));
    expect((err as Error).message).toMatch(/EVALSHA|EVAL/);
    expect(await evalScript(guarded, two, [...TAGGED], [])).toEqual(['1', '2']);
  });

  it('is on for the whole suite (vitest.config.ts env): an ordinary topology client has it', async () => {
    expect(process.env[ENV_LOCALITY_GUARD]).toBe('1');
    const c = topology.client();
    try {
      await expect(c.mget(A, B)).rejects.toBeInstanceOf(LocalityGuardError);
    } finally {
      c.disconnect();
    }
  });

  it('is opt-in: without the variable the server answers CROSSSLOT itself; installing twice is harmless', async () => {
    const err = await plain.mget(A, B).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(LocalityGuardError);
    expect((err as Error).message).toMatch(/^CROSSSLOT Keys in request don't hash to the same slot/);
    installLocalityGuard(guarded);
    await expect(guarded.mget(A, B)).rejects.toThrow(naming(A, B));
  });
});
