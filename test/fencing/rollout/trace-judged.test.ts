/**
 * The rehearsal's observed trace judged by real TLC, end to end (deep tier: real pods, real Valkey,
 * a real Prometheus, a few minutes on a loaded 2-core machine). The real scripts: every session's
 * trace accepted. Pods whose B renew moves the lease without deleting the old key: the keyspace
 * watch sees T1 broken, and TLC rejects the trace at a MigrateB step, naming oldLease.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judgeTraces } from '../../../src/systems/fencing/rollout/judge.js';
import { DEFAULT_REHEARSAL, rehearse } from '../../../src/systems/fencing/rollout/rehearsal.js';
import { locateTlc } from '../../../src/tlc/locate.js';
import { isRunning, listRecords } from '../../../src/valkey/registry.js';

const located = locateTlc();
const why = located.ok ? '' : ` — SKIPPED: ${located.reason}`;
const RUN_MS = 600_000;
const BROKEN = join(import.meta.dirname, '../../fixtures/patches/fencing/migrate-keeps-old-key.ts');

describe('fencecheck rollout: the run judged by TLC', () => {
  it.skipIf(!located.ok)(
    `accepts every session's trace of the real scripts${why}`,
    async () => {
      const r = await rehearse({ ...DEFAULT_REHEARSAL, seed: 3, pods: 2, sessions: 4 });
      expect(r.violations).toEqual([]);
      expect(r.traces).toHaveLength(4);
      const j = await judgeTraces(r.traces);
      expect(j.verdict).toBe('accepted');
      if (j.verdict === 'not run') return;
      expect(j.accepted).toBe(4);
      expect(j.steps).toBeGreaterThan(100);
      expect(listRecords().filter((rec) => rec.ownerPid === process.pid && isRunning(rec.pid))).toEqual([]);
    },
    RUN_MS,
  );

  it.skipIf(!located.ok)(
    `rejects, at a MigrateB step naming oldLease, a run whose B renew keeps the old key${why}`,
    async () => {
      const r = await rehearse({ ...DEFAULT_REHEARSAL, seed: 3, pods: 2, sessions: 4, patch: BROKEN });
      expect(r.violations.some((v) => v.startsWith('T1: '))).toBe(true);
      const j = await judgeTraces(r.traces);
      expect(j.verdict).toBe('rejected');
      if (j.verdict === 'not run') return;
      expect(j.rejected.length).toBeGreaterThan(0);
      for (const x of j.rejected) {
        expect(x.claimed).toMatch(/^MigrateB\(o_relay_\d+_\d{4}_(reliable|huddle)\)$/);
        expect(x.reason).toMatch(/oldLease = \[owner \|-> None, gen \|-> 0\]/);
      }
    },
    RUN_MS,
  );
});
