import { describe, expect, it } from 'vitest';
import { SEARCH_BUDGET, searchSeed } from '../../src/mutants/layers/impl.js';

describe('the impl mutant runner search budget', () => {
  it('starts from the given seed and derives distinct, reproducible 32-bit seeds for the further suites', () => {
    for (const seed of [0, 42, -7, 2147483647, -2147483648]) {
      const seeds = Array.from({ length: SEARCH_BUDGET }, (_, k) => searchSeed(seed, k));
      expect(seeds[0]).toBe(seed);
      expect(new Set(seeds).size).toBe(SEARCH_BUDGET);
      // A door phase uses seed + 1: the derived seeds must not collide with those either.
      expect(seeds.some((s, i) => seeds.some((t, j) => i !== j && ((t + 1) | 0) === s))).toBe(false);
      for (const s of seeds) expect(Number.isInteger(s) && s === (s | 0)).toBe(true);
      expect(seeds).toEqual(Array.from({ length: SEARCH_BUDGET }, (_, k) => searchSeed(seed, k)));
    }
  });
});
