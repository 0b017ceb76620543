import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Redis } from 'ioredis';
import { nodeClient, startTopology, type Topology } from '../../src/valkey/index.js';
import { hashTag, keySlot } from '../../src/valkey/slots.js';

// Keys built from brace-heavy pieces: empty tags, nested and unbalanced braces, UTF-8.
const piece = fc.constantFrom('{', '}', '{}', '}{', '{{', '}}', 'a', 'b', ':', 'c1:s1', 'é', '€', '😀', ' ', '');
const braceKey = fc.array(piece, { maxLength: 12 }).map((ps) => ps.join(''));
const anyKey = fc.oneof(braceKey, fc.string({ maxLength: 24 }), fc.string({ unit: 'binary', maxLength: 16 }), fc.string({ unit: 'grapheme', maxLength: 12 }));

describe('keySlot', () => {
  it('matches known CRC16/XMODEM vectors and hash-tag rules', () => {
    expect(keySlot('123456789')).toBe(0x31c3 % 16384);
    expect(keySlot('foo')).toBe(12182);
    expect(keySlot('{user1000}.following')).toBe(keySlot('user1000'));
    expect(keySlot('foo{}{bar}')).not.toBe(keySlot('bar')); // first '{' opens an empty tag: whole key
    expect(keySlot('foo{{bar}}zap')).toBe(keySlot('{bar'));
    expect(keySlot('foo{bar}{zap}')).toBe(keySlot('bar'));
    expect(hashTag('buzz:tunnel:{c1:s1}:lease')).toBe('c1:s1');
    expect(hashTag('a{}b')).toBeNull();
  });

  describe('against CLUSTER KEYSLOT on a real node', () => {
    let topo: Topology;
    let node: Redis;
    beforeAll(async () => {
      topo = await startTopology({ kind: 'cluster', shards: 1 }, { provider: 'native' });
      const n = topo.nodes[0]!;
      node = nodeClient(n);
    });
    afterAll(async () => {
      node?.disconnect();
      await topo?.stop();
    });

    it('agrees on the tagged pair of the new keyspace', async () => {
      const lease = Number(await node.call('CLUSTER', 'KEYSLOT', 'buzz:tunnel:{c1:s1}:lease'));
      const gen = Number(await node.call('CLUSTER', 'KEYSLOT', 'buzz:tunnel:{c1:s1}:generation'));
      expect(lease).toBe(gen);
      expect(keySlot('buzz:tunnel:{c1:s1}:lease')).toBe(lease);
    });

    it('agrees on thousands of generated keys (one pipeline per run)', async () => {
      let checked = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(anyKey, { minLength: 50, maxLength: 250 }), async (keys) => {
          const p = node.pipeline();
          for (const k of keys) p.call('CLUSTER', 'KEYSLOT', k);
          const res = (await p.exec()) ?? [];
          const server = res.map(([err, v]) => {
            if (err) throw err;
            return Number(v);
          });
          checked += keys.length;
          expect(keys.map(keySlot)).toEqual(server);
        }),
        { numRuns: Number(process.env.FC_RUNS ?? 20) },
      );
      expect(checked).toBeGreaterThanOrEqual(1000);
    });
  });
});
