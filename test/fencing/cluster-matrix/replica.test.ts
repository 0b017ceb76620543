/**
 * The replica row on a real 3-primary, 1-replica-each cluster. Every drill drops a replica's link
 * and restarts it in place from a snapshot older than the keys, its resync held (a fault proxy on
 * the link) until the client has made its reads, then lets its handshake through with what it
 * missed still held back, then releases it all: the guarded client reads only right values, no read
 * error reaches it, and it reads from the replica again once it has caught up; the unguarded one
 * (stale reads allowed) reads a nil from the restarted replica, and the no-admission one (refused
 * stale reads, no caught-up check) from the connected one still behind, every run; a pinned
 * connection is never read from again.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTopology, type Topology } from '../../../src/valkey/index.js';
import { replicaRow } from '../../../src/systems/fencing/cluster-matrix/rows/replica.js';
import { useAbsoluteValkeyBinary } from '../../../src/systems/fencing/cluster-matrix/drills/restart.js';
import { rowStatus, type RowContext, type RowOutcome } from '../../../src/systems/fencing/cluster-matrix/types.js';

/** Wrong reads per phase: before the hold, link down, restarted, connected but behind, released. */
function wrongByPhase(r: RowOutcome): number[] {
  return String(r.figures['wrong reads before / link down / restarted / behind / released']).split('/').map(Number);
}

let topology: Topology;
let ctx: RowContext;
beforeAll(async () => {
  // DEBUG RESTART re-executes the server by the path it was started with.
  useAbsoluteValkeyBinary();
  topology = await startTopology({ kind: 'cluster', shards: 3, replicasPerShard: 1 }, { provider: 'native' });
  ctx = { topology, repeat: 1, log: () => {} };
});
afterAll(async () => {
  await topology?.stop();
});

it('guarded: right values throughout, no read error, refused while its link was down, read from again after the release', async () => {
  const r = await replicaRow.run(ctx, 'guarded');
  expect(r.errors, JSON.stringify(r)).toEqual({ status: 'passed' });
  expect(r.silentlyWrong, JSON.stringify(r)).toEqual({ status: 'passed' });
  expect(r.figures['wrong reads']).toBe(0);
  expect(r.figures['read errors'], JSON.stringify(r.figures)).toBe(0);
  // The held replica was in the client's pool (the unguarded client reads from it there) and refused reads itself.
  expect(r.figures['back in the read pool ms']).toEqual(expect.any(Number));
  expect(r.figures['reads refused by the replica'], JSON.stringify(r.figures)).toBeGreaterThan(0);
  expect(r.figures['reads re-sent to the primary']).toBeGreaterThan(0);
  expect(r.figures['reads from it again after release ms']).toEqual(expect.any(Number));
});

it('broken: unguarded (stale reads allowed) → a nil read from the restarted replica, silently wrong', async () => {
  const r = await replicaRow.run(ctx, 'unguarded');
  expect(rowStatus(r)).toBe('failed');
  expect(r.errors, JSON.stringify(r)).toEqual({ status: 'passed' });
  expect((r.silentlyWrong as { reason: string }).reason).toMatch(/^read \d+ of buzz:c1:presence:r\d+ returned null/);
  // Every read it began once the restarted replica was back in its pool was wrong (20 made there, one may straddle).
  expect(wrongByPhase(r)[2], JSON.stringify(r.figures)).toBeGreaterThanOrEqual(19);
});

it('broken: no-admission (stale reads refused, no caught-up check) → a nil read from the replica connected but behind', async () => {
  const r = await replicaRow.run(ctx, 'no-admission');
  expect(rowStatus(r)).toBe('failed');
  expect(r.errors, JSON.stringify(r)).toEqual({ status: 'passed' });
  expect((r.silentlyWrong as { reason: string }).reason).toMatch(/^read \d+ of buzz:c1:presence:r\d+ returned null/);
  expect(r.figures['read errors'], JSON.stringify(r.figures)).toBe(0);
  // Every read it began while the replica was connected but behind was wrong.
  expect(wrongByPhase(r)[3], JSON.stringify(r.figures)).toBeGreaterThanOrEqual(19);
  // Its server half worked: the replica refused reads while its link was down.
  expect(r.figures['reads refused by the replica']).toBeGreaterThan(0);
});

it('broken: a replica connection that is never repaired → red', async () => {
  const r = await replicaRow.run(ctx, 'pinned');
  expect(rowStatus(r)).toBe('failed');
  expect((r.silentlyWrong as { reason: string }).reason).toMatch(/did not read from/);
});
