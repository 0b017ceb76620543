import { describe, expect, it } from 'vitest';
import { bucketSpec, BucketSpecError, pairSlots, replaceOnce } from '../../src/systems/limiter/index.js';

describe('bucket specs', () => {
  it('encode once into the script units', () => {
    const s = bucketSpec({ capacity: 20, refillPerSecond: 0.666, idleTtlMs: 30_000 });
    expect(s.args).toEqual(['20000000', '666', '30000']);
    expect(Object.isFrozen(s) && Object.isFrozen(s.args)).toBe(true);
  });
  it('reject values the script cannot represent exactly', () => {
    expect(() => bucketSpec({ capacity: 0, refillPerSecond: 1, idleTtlMs: 1 })).toThrow(BucketSpecError);
    expect(() => bucketSpec({ capacity: 1.5, refillPerSecond: 1, idleTtlMs: 1 })).toThrow(/capacity/);
    expect(() => bucketSpec({ capacity: 1, refillPerSecond: 0.0001, idleTtlMs: 1 })).toThrow(/refillPerSecond/);
    expect(() => bucketSpec({ capacity: 1, refillPerSecond: 1, idleTtlMs: 0 })).toThrow(/idleTtlMs/);
  });
});

describe('slot check', () => {
  it('a tagged pair shares a slot, an untagged pair generally does not', () => {
    expect(pairSlots('{chan:42}:standard', '{chan:42}:shared').sameSlot).toBe(true);
    expect(pairSlots('chan:42:standard', 'chan:42:shared').sameSlot).toBe(false);
  });
});

describe('limiter patches', () => {
  it('replace exactly one occurrence or refuse', () => {
    expect(replaceOnce('a b c', 'b', 'x')).toBe('a x c');
    expect(() => replaceOnce('a b b', 'b', 'x')).toThrow(/exactly one/);
    expect(() => replaceOnce('a', 'b', 'x')).toThrow(/exactly one/);
  });
});
