/**
 * The failover drill's outcome judge on hand-written histories (no Valkey): a lost reply reported
 * unknown is explained; the same call re-sent and reported by its second answer is not; a
 * generation returned twice is a finding; a final keyspace the outcomes cannot reach is one.
 */
import { expect, it } from 'vitest';
import { judgeSession } from '../../../src/systems/fencing/cluster-matrix/drills/judge.js';
import type { CallRecord } from '../../../src/systems/fencing/cluster-matrix/drills/outcomes.js';

const at = { startedAt: 0, endedAt: 0 };
const acq = (owner: string, rest: Partial<CallRecord>): CallRecord => ({ session: 's', op: 'acquire', owner, outcome: 'applied', ...at, ...rest });
const rel = (owner: string, gen: number, rest: Partial<CallRecord>): CallRecord => ({ session: 's', op: 'release', owner, gen, outcome: 'applied', ...at, ...rest });

it('an acquire whose reply was lost, reported unknown, is explained by the keyspace', () => {
  const calls = [
    acq('p0', { reply: { kind: 'ok', gen: 1 } }),
    rel('p0', 1, { reply: { kind: 'released' } }),
    acq('p1', { outcome: 'unknown' }),
    acq('p2', { outcome: 'refused', reply: { kind: 'held', owner: 'p1', gen: 2 } }),
  ];
  expect(judgeSession('s', calls, { lease: { owner: 'p1', gen: 2 }, counter: 2 }).findings).toEqual([]);
});

it('the same acquire re-sent and reported by its second answer (held by itself) is found', () => {
  const calls = [acq('p0', { outcome: 'refused', reply: { kind: 'held', owner: 'p0', gen: 1 } })];
  expect(judgeSession('s', calls, { lease: { owner: 'p0', gen: 1 }, counter: 1 }).findings.join()).toMatch(/reported wrongly/);
});

it('a call reported as not run that did run leaves a keyspace the outcomes cannot explain', () => {
  const calls = [acq('p0', { outcome: 'refused', failure: 'ECONNREFUSED' })];
  expect(judgeSession('s', calls, { lease: { owner: 'p0', gen: 1 }, counter: 1 }).findings.join()).toMatch(/not explained/);
});

it('a generation issued twice (a failover lost the counter) is a finding', () => {
  const calls = [acq('p0', { reply: { kind: 'ok', gen: 1 } }), rel('p0', 1, { outcome: 'unknown' }), acq('p1', { reply: { kind: 'ok', gen: 1 } })];
  expect(judgeSession('s', calls, { lease: { owner: 'p1', gen: 1 }, counter: 1 }).findings.join()).toMatch(/generation 1 issued twice/);
});
