// `props --shard i/n`: the parts' run counts add up to the whole, the first parts one more when n
// does not divide; each part runs on a seed of its own (the same seed would run part 1's runs again).
import { describe, expect, it } from 'vitest';
import { shardRuns, shardSeed } from './suite.js';

describe('props --shard i/n', () => {
  it('splits the runs so the parts add up to them', () => {
    for (const runs of [0, 1, 7, 20, 100]) {
      for (const count of [1, 2, 3, 4, 64]) {
        const parts = Array.from({ length: count }, (_, i) => shardRuns(runs, { index: i + 1, count }));
        expect(
          parts.reduce((a, b) => a + b, 0),
          `${runs} over ${count}`,
        ).toBe(runs);
        expect(Math.max(...parts) - Math.min(...parts)).toBeLessThanOrEqual(1);
      }
    }
    expect([1, 2, 3].map((index) => shardRuns(20, { index, count: 3 }))).toEqual([7, 7, 6]);
  });
  it('gives each part its own seed, part 1 the given one', () => {
    const seeds = Array.from({ length: 4 }, (_, i) => shardSeed(42, { index: i + 1, count: 4 }));
    expect(seeds[0]).toBe(42);
    expect(new Set(seeds).size).toBe(4);
    expect(shardSeed(2147483647, { index: 2, count: 2 })).toBe((2147483647 + 7919) | 0);
  });
});
