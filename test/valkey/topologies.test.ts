import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { nodeClient, startTopology, waitReplicasInSync, type Topology, type TopologySpec } from '../../src/valkey/index.js';
import { evalScript, luaScript } from '../../src/valkey/scripts/index.js';
import { keySlot } from '../../src/valkey/slots.js';
import { isAlive } from '../../src/valkey/registry.js';
import { busLinksUp, keyInRange, slotRanges } from '../../src/valkey/cluster-form.js';

const twoKeys = luaScript('two-keys', "redis.call('SET', KEYS[1], ARGV[1]); redis.call('SET', KEYS[2], ARGV[1]); return redis.call('GET', KEYS[1])");
// Written as a string on purpose: the static check would refuse it (the point of the test below).
const UNDECLARED = "return redis.call('SET', 'undeclared:key', '1')";

function direct(t: Topology, i: number): Redis {
  const n = t.nodes[i]!;
  return nodeClient(n);
}

const specs: { name: string; spec: TopologySpec }[] = [
  { name: 'standalone', spec: { kind: 'standalone' } },
  { name: 'one-shard cluster', spec: { kind: 'cluster', shards: 1 } },
  { name: 'three-shard cluster with replicas', spec: { kind: 'cluster', shards: 3, replicasPerShard: 1 } },
];

describe.each(specs)('$name', ({ spec }) => {
  let topo: Topology;
  beforeAll(async () => {
    topo = await startTopology(spec, { provider: 'native' });
  });
  afterAll(async () => {
    await topo?.stop();
  });

  it('starts healthy: nodes answer, roles and cluster state as asked', async () => {
    expect(topo.provider).toBe('native');
    expect(topo.owned).toBe(true);
    expect(topo.keyPrefix).toBe('');
    const expected = spec.kind === 'standalone' ? 1 : spec.shards * (1 + (spec.replicasPerShard ?? 0));
    expect(topo.nodes).toHaveLength(expected);
    for (let i = 0; i < topo.nodes.length; i++) {
      const c = direct(topo, i);
      try {
        expect(await c.ping()).toBe('PONG');
        const role = (await c.call('ROLE')) as string[];
        expect(role[0]).toBe(topo.nodes[i]!.role === 'primary' ? 'master' : 'slave');
        const info = await c.info('cluster');
        if (spec.kind === 'standalone') expect(info).toMatch(/cluster_enabled:0/);
        else {
          const ci = String(await c.call('CLUSTER', 'INFO'));
          expect(ci).toMatch(/cluster_state:ok/);
          expect(ci).toMatch(/cluster_slots_assigned:16384/);
          expect(ci).toMatch(new RegExp(`cluster_known_nodes:${expected}\\b`));
          expect(ci).toMatch(new RegExp(`cluster_size:${spec.shards}\\b`));
          // Two-way, answered bus links (else Valkey 8 may drop the first PUBLISH: cluster-form.ts).
          const nodes = String(await c.call('CLUSTER', 'NODES'));
          const others = nodes
            .trim()
            .split('\n')
            .filter((l) => !l.includes('myself'))
            .map((l) => l.split(' ')[0]!);
          expect(busLinksUp(await c.call('CLUSTER', 'LINKS'), nodes, others)).toBe(true);
        }
      } finally {
        c.disconnect();
      }
    }
  });

  it('a client writes and reads keys across slots; flush() empties every primary', async () => {
    const c = topo.client();
    try {
      const keys = Array.from({ length: 30 }, (_, i) => `k:${i}`);
      for (const k of keys) await c.set(k, k);
      for (const k of keys) expect(await c.get(k)).toBe(k);
      await topo.flush();
      for (const k of keys) expect(await c.get(k)).toBeNull();
    } finally {
      c.disconnect();
    }
  });

  it('a tagged two-key script runs; an untagged one fails CROSSSLOT exactly when cluster-enabled', async () => {
    const c = topo.client();
    try {
      expect(await evalScript(c, twoKeys, ['buzz:tunnel:{c1:s1}:lease', 'buzz:tunnel:{c1:s1}:generation'], ['v'])).toBe('v');
      const untagged = evalScript(c, twoKeys, ['buzz:c1:tunnel:s1:lease', 'buzz:c1:tunnel:s1:generation'], ['v']);
      if (spec.kind === 'cluster') await expect(untagged).rejects.toThrow(/CROSSSLOT/);
      else await expect(untagged).resolves.toBe('v'); // standalone never raises CROSSSLOT: slot bugs are invisible there
    } finally {
      c.disconnect();
    }
  });

  it('SCRIPT FLUSH on every node, then calls on every shard still succeed (NOSCRIPT → EVAL per node)', async () => {
    const c = topo.client();
    const counter = luaScript('count', "return redis.call('INCR', KEYS[1])");
    // One key per shard when there are several.
    const keys = spec.kind === 'cluster' ? Array.from({ length: spec.shards }, (_, i) => keyInRange(slotRanges(spec.shards)[i]!)) : ['count'];
    try {
      for (const k of keys) expect(await evalScript(c, counter, [k], [])).toBe(1);
      for (let i = 0; i < topo.nodes.length; i++) {
        const d = direct(topo, i);
        await d.call('SCRIPT', 'FLUSH');
        expect(await d.call('SCRIPT', 'EXISTS', counter.sha1)).toEqual([0]);
        d.disconnect();
      }
      for (const k of keys) expect(await evalScript(c, counter, [k], [])).toBe(2);
      // Each primary loaded it again by itself.
      for (let i = 0; i < topo.nodes.length; i++) {
        if (topo.nodes[i]!.role !== 'primary') continue;
        const d = direct(topo, i);
        expect(await d.call('SCRIPT', 'EXISTS', counter.sha1)).toEqual([1]);
        d.disconnect();
      }
    } finally {
      c.disconnect();
    }
  });

  if (spec.kind === 'cluster' && (spec.replicasPerShard ?? 0) > 0) {
    it('waitReplicasInSync: after writes every replica holds what its primary holds', async () => {
      const c = topo.client();
      try {
        for (let i = 0; i < 50; i++) await c.set(`r:${i}`, String(i));
      } finally {
        c.disconnect();
      }
      await waitReplicasInSync(topo);
      const sizes = await Promise.all(
        topo.nodes.map(async (_, i) => {
          const d = direct(topo, i);
          try {
            return { role: topo.nodes[i]!.role, size: await d.dbsize() };
          } finally {
            d.disconnect();
          }
        }),
      );
      const sum = (role: string) => sizes.filter((x) => x.role === role).reduce((a, x) => a + x.size, 0);
      expect(sum('primary')).toBeGreaterThanOrEqual(50);
      expect(sum('replica')).toBe(sum('primary'));
    });
  }

  if (spec.kind === 'cluster') {
    it('CLUSTER KEYSLOT of the tagged lease and generation keys are equal, and equal keySlot()', async () => {
      const d = direct(topo, 0);
      try {
        const a = Number(await d.call('CLUSTER', 'KEYSLOT', 'buzz:tunnel:{c1:s1}:lease'));
        const b = Number(await d.call('CLUSTER', 'KEYSLOT', 'buzz:tunnel:{c1:s1}:generation'));
        expect(a).toBe(b);
        expect(keySlot('buzz:tunnel:{c1:s1}:lease')).toBe(a);
      } finally {
        d.disconnect();
      }
    });

    it('the server alone misses an undeclared key without a shebang, and rejects it with #!lua (why the static check exists)', async () => {
      const c = topo.client();
      try {
        const plain = c.eval(UNDECLARED, 1, 'declared:key');
        if (spec.shards === 1) await expect(plain).resolves.toBe('OK');
        await expect(c.eval(`#!lua\n${UNDECLARED}`, 1, 'declared:key')).rejects.toThrow(/undeclared|not declared|cross slot|Script attempted to access/i);
      } finally {
        c.disconnect();
      }
    });
  }

  it('stop() kills every node by PID and is idempotent', async () => {
    const t = await startTopology(spec, { provider: 'native' });
    const pids = t.nodes.map((n) => n.pid!);
    expect(pids.every((p) => Number.isInteger(p) && isAlive(p))).toBe(true);
    await t.stop();
    await t.stop();
    expect(pids.filter(isAlive)).toEqual([]);
  });
});

describe('busLinksUp (CLUSTER LINKS + CLUSTER NODES of one node)', () => {
  const nodes = ['me 127.0.0.1:1@2 myself,master - 0 0 1 connected 0-100', 'b 127.0.0.1:3@4 master - 0 2000 2 connected 101-200'].join('\n');
  const link = (direction: string, created: number) => ['direction', direction, 'node', 'b', 'create-time', created, 'events', 'r'];
  it('up: a to-link answered since it was made, and a from-link', () => {
    expect(busLinksUp([link('to', 1500), link('from', 1400)], nodes, ['b'])).toBe(true);
  });
  it('not up: no inbound link, an unanswered outbound link, or no link at all', () => {
    expect(busLinksUp([link('to', 1500)], nodes, ['b'])).toBe(false);
    expect(busLinksUp([link('to', 2500), link('from', 1400)], nodes, ['b'])).toBe(false);
    expect(busLinksUp([], nodes, ['b'])).toBe(false);
  });
});
