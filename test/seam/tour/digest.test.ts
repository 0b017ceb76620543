/** The mergeable digest: a sum mod 2^256 that carries across words and does not care about order. */
import { describe, expect, it } from 'vitest';
import { addDigests, blockHash, DigestSum } from '../../../src/seam/tour/digest.js';

const hex = (n: bigint) => n.toString(16).padStart(64, '0');
const MOD = 1n << 256n;

describe('the tour digest', () => {
  it('adds modulo 2^256 with every carry (checked against BigInt)', () => {
    const a = (1n << 256n) - 1n; // all ones: + 1 carries through all eight words
    expect(addDigests([hex(a), hex(1n)])).toBe(hex(0n));
    const b = 0xffffffffn << 32n; // a carry out of one word into the next
    expect(addDigests([hex(b), hex(1n << 32n)])).toBe(hex((b + (1n << 32n)) % MOD));
    const terms = ['alpha', 'beta', 'gamma'].map((t) => blockHash([t]));
    const want = terms.reduce((acc, t) => (acc + BigInt(`0x${t.toString('hex')}`)) % MOD, 0n);
    expect(new DigestSum().add(terms[0]!).add(terms[1]!).add(terms[2]!).hex()).toBe(hex(want));
  });

  it('is the same in any order and in any split: the shards add up to the whole', () => {
    const blocks = ['s0|a|refused|s0', 's1|b|transition B|s2', 's2|c|refused|s2', 's3|d|transition D|s0'].map((l) => blockHash([l]));
    const whole = new DigestSum();
    for (const b of blocks) whole.add(b);
    const parts = [new DigestSum().add(blocks[3]!).add(blocks[0]!).hex(), new DigestSum().add(blocks[2]!).add(blocks[1]!).hex()];
    expect(addDigests(parts)).toBe(whole.hex());
    expect(addDigests([...parts].reverse())).toBe(whole.hex());
  });

  it('tells a changed edge apart, and its order within a state', () => {
    expect(blockHash(['x|a|refused|x'])).not.toEqual(blockHash(['x|a|transition A|y']));
    expect(blockHash(['l1', 'l2'])).not.toEqual(blockHash(['l2', 'l1']));
    expect(() => DigestSum.fromHex('xyz')).toThrow(/64 lower-case hex digits/);
  });
});
