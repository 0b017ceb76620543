/**
 * Sharding and merging on the toy lock: the shards partition the states, their figures and digests
 * add up to the unsharded run's, and the merge of their StageReports is that run's report; a missing,
 * duplicated or foreign shard is an error, a failed or not-run shard is never a pass.
 */
import { describe, expect, it } from 'vitest';
import { addDigests } from '../../../src/seam/tour/digest.js';
import { mergeTourReports, TourMergeError } from '../../../src/seam/tour/merge.js';
import { parseShard, ShardSpecError, type Shard } from '../../../src/seam/tour/shard.js';
import { tourNotRunReport, tourStageReport } from '../../../src/seam/tour/stage.js';
import { runTour } from '../../../src/seam/tour/tour.js';
import { toySystem, type ToyOptions } from './toy.js';

const conform = { kind: 'conformance' } as const;
const startedAt = new Date('2026-01-01T00:00:00Z');

async function shardReports(n: number, toy: ToyOptions = {}) {
  const results = await Promise.all(Array.from({ length: n }, (_, i) => runTour(toySystem(toy), { checks: conform, shard: { index: i + 1, count: n } })));
  return { results, reports: results.map((r) => tourStageReport(r, { stage: 'conform', startedAt })) };
}

describe('--shard i/n', () => {
  it('accepts 1 ≤ i ≤ n ≤ 64 and nothing else', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    expect(parseShard('64/64')).toEqual({ index: 64, count: 64 });
    for (const bad of ['0/4', '5/4', '1/65', '1/0', '1', '1/2/3', 'a/b', '-1/4', '1.5/4', '']) expect(() => parseShard(bad), bad).toThrow(ShardSpecError);
  });
});

describe.each(['inject', 'replay'] as const)('shards of a %s tour', (reach) => {
  it('partition the states; figures and digests add up to the unsharded run; the merge is that run', async () => {
    const whole = await runTour(toySystem({ reach }), { checks: conform });
    const { results, reports } = await shardReports(4, { reach });
    for (const r of results) {
      expect(r.failure).toBeNull();
      expect(r.equalToModel).toBe(true);
      expect(r.whole.digest).toBe(whole.digest);
    }
    expect(results.reduce((n, r) => n + r.states, 0)).toBe(whole.states);
    expect(results.reduce((n, r) => n + r.attempts, 0)).toBe(whole.attempts);
    expect(addDigests(results.map((r) => r.digest!))).toBe(whole.digest);
    expect(results.filter((r) => r.states > 0).length).toBeGreaterThan(1); // the hash spreads them

    const merged = mergeTourReports([reports[2], reports[0], reports[3], reports[1]]);
    const unsharded = tourStageReport(whole, { stage: 'conform', startedAt });
    expect(merged.status).toBe('passed');
    const { tourMs: _a, ...mergedCounts } = merged.counts!;
    const { tourMs: _b, ...wholeCounts } = unsharded.counts!;
    expect(mergedCounts).toEqual(wholeCounts);
    const d = merged.details as typeof unsharded.details;
    expect(d!.digest).toBe(whole.digest);
    expect(d!.equalToModel).toBe(true);
    expect(d!.byAction).toEqual(unsharded.details!.byAction);
    expect(d!.model).toEqual(unsharded.details!.model);
    expect(d!.shards!.map((s) => s.index)).toEqual([1, 2, 3, 4]);
  });
});

describe('mergeTourReports refuses what is not one whole tour', () => {
  it('a missing shard, a duplicated one, a different split, a report that is no tour report', async () => {
    const { reports } = await shardReports(4);
    expect(() => mergeTourReports(reports.slice(0, 3))).toThrow(/shard 4\/4 missing/);
    expect(() => mergeTourReports([reports[0], reports[1], reports[1], reports[2], reports[3]])).toThrow(/shard 2\/4 appears twice/);
    const two = (await shardReports(2)).reports;
    expect(() => mergeTourReports([...reports, two[0]])).toThrow(/different splits/);
    expect(() => mergeTourReports([])).toThrow(TourMergeError);
    expect(() => mergeTourReports([{ schema: 'fencecheck.stage/1', status: 'passed', details: {} }])).toThrow(/details.shard is not an object/);
    expect(() => mergeTourReports(['{}'])).toThrow(/not a StageReport/);
    const foreign = structuredClone(reports[3]!) as { details: { whole: { digest: string } } };
    foreign.details.whole.digest = '0'.repeat(64);
    expect(() => mergeTourReports([...reports.slice(0, 3), foreign])).toThrow(/another tour/);
  });

  it('a shard whose real graph differs, a failed shard, a shard that did not run: never a pass', async () => {
    const { reports } = await shardReports(3);
    const forged = structuredClone(reports[1]!) as { details: { digest: string } };
    forged.details.digest = 'f'.repeat(64);
    const m = mergeTourReports([reports[0], forged, reports[2]]);
    expect(m.status).toBe('failed');
    expect((m.details as { equalToModel: boolean }).equalToModel).toBe(false);

    const failed = await shardReports(3, { bug: 'release-any-holder' });
    const f = mergeTourReports(failed.reports);
    expect(f.status).toBe('failed');
    expect(f.summary).toMatch(/Conformance in shard \d\/3/);

    const notRun = tourNotRunReport({ stage: 'conform', startedAt, reason: 'no valkey-server', shard: { index: 2, count: 3 } as Shard, system: 'toy-lock' });
    const n = mergeTourReports([reports[0], notRun, reports[2]]);
    expect(n.status).toBe('not-run');
    expect(n.reason).toMatch(/shard 2\/3: no valkey-server/);
  });
});
