import { describe, expect, it } from 'vitest';
import { ABSENT, TOKEN, advance, delayMs, step, type Stored } from './model.js';
import type { BucketUnits } from '../../src/systems/limiter/spec.js';

const spec: BucketUnits = { capacityMicro: 3 * TOKEN, refillMicroPerMs: 1000, idleTtlMs: 60_000 }; // 1 token/s
const bucket = (tokens: number, ts: number, expireAt = ts + 60_000): Stored => ({ kind: 'bucket', tokens, ts, expireAt });
const NOW = 1_000_000;

describe('limiter model: the transition table', () => {
  it('first deny: first gets its refill state, second is untouched', () => {
    const second = bucket(2 * TOKEN, NOW - 5);
    const s = step(NOW, { spec, stored: bucket(0, NOW - 10) }, { spec, stored: second });
    expect(s.outcome).toEqual({ kind: 'decision', decision: 1, delayMs: 990 });
    expect(s.row).toBe('deny-first');
    expect(s.after[0]).toEqual(bucket(10_000, NOW, NOW + 60_000));
    expect(s.after[1]).toBe(second);
  });
  it('first allow, second deny: first consumed, second refilled', () => {
    const s = step(NOW, { spec, stored: bucket(TOKEN, NOW) }, { spec, stored: bucket(500, NOW - 1) });
    expect(s.outcome).toEqual({ kind: 'decision', decision: 2, delayMs: 999 });
    expect(s.after).toEqual([bucket(0, NOW), bucket(1500, NOW)]);
  });
  it('both allow: both consumed; a fresh bucket starts full', () => {
    const s = step(NOW, { spec, stored: ABSENT }, { spec, stored: bucket(TOKEN, NOW - 1) });
    expect(s.outcome).toEqual({ kind: 'decision', decision: 0, delayMs: 0 });
    expect(s.after).toEqual([bucket(2 * TOKEN, NOW), bucket(1000, NOW)]);
  });
  it('a wrong-type or corrupt key anywhere: error, nothing changes', () => {
    const first = bucket(TOKEN, NOW);
    for (const kind of ['wrongtype', 'corrupt'] as const) {
      const s = step(NOW, { spec, stored: first }, { spec, stored: { kind } });
      expect(s.outcome.kind).toBe('error');
      expect(s.after[0]).toBe(first);
    }
  });
});

describe('limiter model: refill', () => {
  it('is capped at capacity, also for a stored value above it', () => {
    expect(step(NOW, { spec, stored: bucket(0, NOW - 10_000_000) }).after[0]).toEqual(bucket(2 * TOKEN, NOW, NOW + 60_000));
    expect(step(NOW, { spec, stored: bucket(9 * TOKEN, NOW) }).after[0]).toEqual(bucket(2 * TOKEN, NOW, NOW + 60_000));
  });
  it('a ts ahead of now refills nothing and is kept', () => {
    const s = step(NOW, { spec, stored: bucket(TOKEN / 2, NOW + 50) });
    expect(s.row).toBe('single-deny');
    expect(s.after[0]).toEqual(bucket(TOKEN / 2, NOW + 50, NOW + 60_000));
  });
  it('delay rounds up to whole ms', () => {
    expect(delayMs({ ...spec, refillMicroPerMs: 3 }, TOKEN - 1)).toBe(1);
    expect(delayMs({ ...spec, refillMicroPerMs: 3 }, TOKEN - 4)).toBe(2);
    expect(delayMs(spec, TOKEN)).toBe(0);
  });
  it('advancing time ages a bucket or expires it', () => {
    expect(advance(bucket(5, 100, 1000), 50, 0)).toEqual(bucket(5, 50, 950));
    expect(advance(bucket(5, 100, 1000), 50, 950)).toEqual(ABSENT);
  });
});
