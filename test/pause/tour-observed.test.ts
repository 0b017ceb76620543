/**
 * What the pause tour observes (src/systems/pause/tour/observed.ts): the TTL rule and the observed
 * line, on hand-made read-backs. The tours that use them are test/pause/tour.test.ts and the
 * five-bug set (test/pause/patch-verdicts.test.ts, deep).
 */
import { describe, expect, it } from 'vitest';
import { observedLine, ttlFailure, type PauseObservation, type StoredKey } from '../../src/systems/pause/tour/observed.js';

const key = (value: string | null, pttl: number): StoredKey => ({ value, pttl, ttl: pttl === -2 ? 'none' : pttl === -1 ? 'persistent' : 'expiring' });
const obs = (paused: StoredKey, version: StoredKey): PauseObservation => ({ paused, version, replicas: 'r1: running fresh ready running@+1 reconciles 0/0 events 1/0' });

describe('the pause tour’s observation', () => {
  it('the TTL rule: a flag or version with an expiry is a TTL finding, a persistent or absent key is not', () => {
    expect(ttlFailure(obs(key('1', -1), key('+1', -1)))).toBeNull();
    expect(ttlFailure(obs(key(null, -2), key(null, -2)))).toBeNull();
    expect(ttlFailure(obs(key('1', 3_599_000), key('+1', -1)))).toEqual({ check: 'TTL', message: 'the paused key has PTTL 3599000: the pause state must never expire' });
    expect(ttlFailure(obs(key(null, -2), key('+2', 10)))?.check).toBe('TTL');
  });

  it('the observed line tells a flag stored as "0" from one deleted, and an expiring key from a persistent one', () => {
    const deleted = observedLine(obs(key(null, -2), key('+2', -1)));
    expect(deleted).toBe('paused=-@none version=+2@persistent|r1: running fresh ready running@+1 reconciles 0/0 events 1/0');
    expect(observedLine(obs(key('0', -1), key('+2', -1)))).not.toBe(deleted);
    expect(observedLine(obs(key('1', -1), key('+2', -1)))).not.toBe(observedLine(obs(key('1', 5000), key('+2', -1))));
  });
});
