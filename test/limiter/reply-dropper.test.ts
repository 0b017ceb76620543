// The lost-reply plumbing itself: a lost reply on a cluster must not leave the client routing at random.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bucketSpec, Limiter } from '../../src/systems/limiter/index.js';
import { closeClient, createClient, startTopology, type Topology, type ValkeyClient } from '../../src/valkey/index.js';
import { startReplyDropper, type ReplyDropper } from '../../properties/limiter/reply-dropper.js';
import { natMappedRedirect } from '../../src/valkey/nat-cluster.js';

describe('natMappedRedirect', () => {
  const nat = { '127.0.0.1:7000': { host: '127.0.0.1', port: 9000 } };
  it('translates the target of MOVED and ASK, and nothing else', () => {
    expect(natMappedRedirect(new Error('MOVED 12 127.0.0.1:7000'), nat).message).toBe('MOVED 12 127.0.0.1:9000');
    expect(natMappedRedirect(new Error('ASK 5 127.0.0.1:7000'), nat).message).toBe('ASK 5 127.0.0.1:9000');
    const other = new Error('MOVED 12 127.0.0.1:7001');
    expect(natMappedRedirect(other, nat)).toBe(other);
    const wrongType = new Error('WRONGTYPE Operation against a key holding the wrong kind of value');
    expect(natMappedRedirect(wrongType, nat)).toBe(wrongType);
  });
});

/** MOVED replies the primaries have sent (INFO errorstats). */
async function movedReplies(nodes: readonly ValkeyClient[]): Promise<number> {
  let n = 0;
  for (const c of nodes) n += Number(/^errorstat_MOVED:count=(\d+)/m.exec(String(await c.call('INFO', 'errorstats')))?.[1] ?? 0);
  return n;
}

describe('reply dropper on a 3-shard cluster', () => {
  let topology: Topology | undefined;
  let dropper: ReplyDropper | undefined;
  let primaries: ValkeyClient[] = [];
  beforeAll(async () => {
    topology = await startTopology({ kind: 'cluster', shards: 3 }, { provider: 'native' });
    dropper = await startReplyDropper(topology);
    primaries = topology.nodes.filter((n) => n.role === 'primary').map((n) => createClient({ kind: 'standalone', host: n.host, port: n.port }));
  });
  afterAll(async () => {
    await Promise.all(primaries.map(closeClient));
    await dropper?.stop();
    await topology?.stop();
  });

  // A lost reply closes that node's connection; the next call must reach the node in at most one
  // MOVED hop (ioredis without the NAT-mapped redirect walks from node to node at random and, on a
  // loaded machine, runs out of its 16 redirections).
  it('after a lost reply the next call follows MOVED in one hop', async () => {
    const limiter = new Limiter(dropper!.client);
    const spec = bucketSpec({ capacity: 4, refillPerSecond: 1000, idleTtlMs: 60_000 });
    const hops: number[] = [];
    for (let i = 0; i < 12; i++) {
      const key = `lim:{hop${i}}:a`;
      expect((await limiter.allowOrdered({ key, spec })).kind).toBe('decided');
      await dropper!.armDrop(key);
      expect((await limiter.allowOrdered({ key, spec })).kind).toBe('unknown');
      dropper!.disarm();
      const before = await movedReplies(primaries);
      expect((await limiter.allowOrdered({ key: `lim:{hop${i}}:b`, spec })).kind).toBe('decided');
      hops.push((await movedReplies(primaries)) - before);
    }
    expect(Math.max(...hops), `MOVED replies per call after a lost reply: ${hops.join(',')}`).toBeLessThanOrEqual(1);
  });
});
