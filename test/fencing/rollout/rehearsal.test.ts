/**
 * The migration rehearsal end to end (deep tier: real pods, real Valkey, a real Prometheus, about
 * two minutes on a loaded 2-core machine): the whole migration O → A → B → backfill → C with a
 * kill -9 and a rollback, the gate asked at every step, T1/T2 held, the old-keyspace lease count 0
 * before C, and nothing of it left running or on disk.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_REHEARSAL, rehearse } from '../../../src/systems/fencing/rollout/rehearsal.js';
import { isRunning, listRecords } from '../../../src/valkey/registry.js';

describe('fencecheck rollout: the migration rehearsal', () => {
  it('rolls the whole migration with chaos, the gate asked at every step, T1/T2 held, nothing left', async () => {
    const r = await rehearse({ ...DEFAULT_REHEARSAL, seed: 7, pods: 2, sessions: 6 });
    expect(r.violations).toEqual([]);
    expect(r.ok).toBe(true);
    const f = r.figures;
    expect(f.steps).toEqual([
      'AdvanceTarget → target A',
      'AdvanceTarget → target B',
      ...(f.chaos.some((c) => c.includes('after the backfill')) ? ['Backfill → target B'] : []),
      'RollbackPhase → target A',
      'AdvanceTarget → target B',
      'Backfill → target B',
      'AdvanceTarget → target C',
    ]);
    expect(f.oldCensusBeforeC).toBe(0);
    expect(f.chaos.some((c) => c.startsWith('kill -9 '))).toBe(true);
    expect(f.generationsIssued).toBeGreaterThan(0);
    expect(f.keyspaceReads).toBeGreaterThan(0);
    expect(listRecords().filter((rec) => rec.ownerPid === process.pid && isRunning(rec.pid))).toEqual([]);
  });
});
