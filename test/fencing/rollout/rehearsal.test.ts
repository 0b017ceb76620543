/**
 * The migration rehearsal end to end (deep tier: real pods, real Valkey, a real Prometheus, about
 * two minutes on a loaded 2-core machine): the whole migration O → A → B → backfill → C, then the
 * mode doors onto a real cluster, with every
 * chaos kind (a kill -9, a rollback, a stopped renewer, a failed scrape, a Prometheus restart), the gate asked at every step, T1/T2 held, the old-keyspace lease count 0
 * before C, and nothing of it left running or on disk.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_REHEARSAL, rehearse, type RehearsalObserver } from '../../../src/systems/fencing/rollout/rehearsal.js';
import { isRunning, listRecords } from '../../../src/valkey/registry.js';

describe('fencecheck rollout: the migration rehearsal', () => {
  it('rolls the whole migration with chaos, the gate asked at every step, T1/T2 held, nothing left', async () => {
    const seen = { started: 0, stopped: 0, killed: 0, asked: 0, allowed: 0, acquired: 0, renewed: 0, phases: [] as string[] };
    const observer: RehearsalObserver = {
      podStarted: () => seen.started++,
      podStopped: () => seen.stopped++,
      podKilled: () => seen.killed++,
      stepAsked: () => seen.asked++,
      stepAllowed: () => seen.allowed++,
      leaseAcquired: () => seen.acquired++,
      leaseRenewed: () => seen.renewed++,
      phaseChanged: (e) => seen.phases.push(e.mode === 'disabled' ? e.target : `${e.target} ${e.mode}`),
    };
    const r = await rehearse({ ...DEFAULT_REHEARSAL, seed: 7, pods: 2, sessions: 6, observer });
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
      // The mode doors, onto a real cluster.
      'EnterCompatible → target C',
      'Enable → target C',
    ]);
    expect(f.oldCensusBeforeC).toBe(0);
    expect(f.chaos.some((c) => c.startsWith('kill -9 '))).toBe(true);
    // Every chaos kind, named: a stopped renewer, a failed scrape, a Prometheus restart (the gate failed closed meanwhile).
    expect(f.chaos.some((c) => c.includes(' stops renewing '))).toBe(true);
    expect(f.chaos.some((c) => c.includes("'s /metrics "))).toBe(true);
    expect(f.chaos.some((c) => c.startsWith('Prometheus restarted '))).toBe(true);
    expect(f.chaos.some((c) => c.includes(' crash-looping '))).toBe(true);
    expect(f.chaos.some((c) => c.includes(' on a stale image '))).toBe(true);
    expect(f.refusalsByRule.SourceUnreachable).toBeGreaterThan(0);
    expect(f.generationsIssued).toBeGreaterThan(0);
    expect(f.keyspaceReads).toBeGreaterThan(0);
    // The observer saw the same run the figures count.
    expect(seen.started).toBe(f.podsStarted);
    expect(seen.killed).toBe(f.chaos.filter((c) => c.startsWith('kill -9 ') || c.includes(' crash-looping ')).length);
    expect(seen.stopped + seen.killed).toBe(f.podsStarted);
    expect(seen.allowed).toBe(f.steps.length);
    expect(seen.asked).toBe(f.steps.length);
    expect(seen.acquired).toBe(f.generationsIssued);
    expect(seen.renewed).toBeGreaterThan(0);
    expect(seen.phases).toEqual(['A', 'B', 'A', 'B', 'C', 'C compatible', 'C enabled']);
    expect(listRecords().filter((rec) => rec.ownerPid === process.pid && isRunning(rec.pid))).toEqual([]);
  }, 300_000); // two minutes alone, more beside other suites
});
