/**
 * The cluster matrix's failover drills on a real 3-primary, 1-replica-each cluster (the replica row: replica.test.ts).
 * A primary SIGKILLed by PID while the fencing C scripts loop and a subscription
 * client holds topics on every shard: the no-resend client's outcomes all agree with the keyspace
 * and no generation is issued twice; a client that re-sends a call whose reply was lost reports a
 * wrong outcome, which the judge finds (red).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTopology, type Topology } from '../../../src/valkey/index.js';
import { failoverRow } from '../../../src/systems/fencing/cluster-matrix/rows/failover.js';
import { rowStatus, type RowContext } from '../../../src/systems/fencing/cluster-matrix/types.js';

let topology: Topology;
let ctx: RowContext;
beforeAll(async () => {
  topology = await startTopology({ kind: 'cluster', shards: 3, replicasPerShard: 1 }, { provider: 'native' });
  ctx = { topology, repeat: 1, log: () => {} };
});
afterAll(async () => {
  await topology?.stop();
});

it('kill -9 of a primary: outcomes all consistent, no generation twice, both clients back, halt window measured', async () => {
  const r = await failoverRow.run(ctx, 'no-resend');
  expect(r.errors, JSON.stringify(r)).toEqual({ status: 'passed' });
  expect(r.silentlyWrong, JSON.stringify(r)).toEqual({ status: 'passed' });
  expect(String(r.figures['halt window ms p50 / p95 / max'])).toMatch(/^\d+\/\d+\/\d+$/);
  expect(r.figures['subscription back ms p50 / max']).not.toBe('—');
  // The dropped reply happened: there was a call a re-sending client would get wrong.
  expect(r.figures['replies lost before the kill']).toBeGreaterThan(0);
});

it('broken: a client that re-sends after the failover → a wrong outcome found (red)', async () => {
  // The second drill kills the next primary that still has a replica.
  const r = await failoverRow.run(ctx, 'resend');
  expect(rowStatus(r)).toBe('failed');
  expect((r.silentlyWrong as { reason: string }).reason).toMatch(/reported wrongly|not explained|issued twice/);
});
