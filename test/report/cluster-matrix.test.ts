// The cluster client matrix in the verify reports: its stage's report (the real clusterMatrixReport of
// src/systems/fencing/cluster-matrix/report.ts) carries the section and the suite; one JUnit case per
// row, one HTML/Markdown table; a red or unrun row shows.
import { describe, expect, it } from 'vitest';
import { clusterMatrixReport } from '../../src/systems/fencing/cluster-matrix/report.js';
import type { RowResult } from '../../src/systems/fencing/cluster-matrix/types.js';
import { junitXml } from '../../src/report/junit.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import type { StageOutcome, VerifyReport } from '../../src/report/verify-doc.js';
import { buildView } from '../../src/report/view.js';
import { fixtureReport } from './fixtures.js';

const row = (name: string, errors: RowResult['errors'], silentlyWrong: RowResult['silentlyWrong']): RowResult => ({
  name,
  surface: `${name} surface`,
  variant: '',
  topology: 'cluster 3 shards',
  durationMs: 1500,
  errors,
  silentlyWrong,
  figures: { 'completeness %': 100, lost: 0 },
  notes: [],
});

function outcomeOf(rows: readonly RowResult[]): StageOutcome {
  const report = clusterMatrixReport(rows, new Date('2026-11-30T06:00:00Z'), 3000);
  return {
    stage: 'cluster-matrix',
    command: ['cluster-matrix', '--json'],
    status: report.status,
    ...(report.reason ? { reason: report.reason } : {}),
    allowedNotRun: false,
    exitCode: report.status === 'passed' ? 0 : 1,
    signal: null,
    startedAt: report.startedAt,
    durationMs: 3000,
    summary: report.summary,
    leftoverProcesses: 0,
    report,
  };
}

function withMatrix(rows: readonly RowResult[]): VerifyReport {
  const base = fixtureReport();
  return { ...base, stages: [...base.stages, outcomeOf(rows)] };
}

describe('the cluster client matrix in the verify reports', () => {
  const rows = [
    row('registry', { status: 'passed' }, { status: 'passed' }),
    row('pubsub', { status: 'passed' }, { status: 'failed', reason: '12 messages never delivered after CLIENT KILL' }),
    row('failover', { status: 'not-run', reason: 'no replica topology' }, { status: 'not-run', reason: 'no replica topology' }),
  ];
  const r = withMatrix(rows);

  it('the stage keeps every row with both verdicts and the figures', () => {
    const d = r.stages.at(-1)!.report!.details as { schema: string; rows: RowResult[] };
    expect(d.schema).toBe('fencecheck.cluster-matrix/1');
    expect(d.rows.map((x) => [x.name, x.errors.status, x.silentlyWrong.status])).toEqual([
      ['registry', 'passed', 'passed'],
      ['pubsub', 'passed', 'failed'],
      ['failover', 'not-run', 'not-run'],
    ]);
  });

  it("the stage's reason names each red row's findings, so that a CI log shows why (not only 'pubsub: failed')", () => {
    const stage = clusterMatrixReport(rows, new Date('2026-11-30T06:00:00Z'), 3000);
    expect(stage.status).toBe('failed');
    expect(stage.reason).toBe('pubsub: silently wrong: 12 messages never delivered after CLIENT KILL');
  });

  it('JUnit: one case per row, a silently-wrong row fails with its reason and a replay, an unrun row is skipped', () => {
    const xml = junitXml(r);
    expect(xml).toMatch(/<testcase classname="fencecheck\.cluster-matrix" name="cluster-matrix registry"[^>]*>/);
    expect(xml).toMatch(
      /<testcase classname="fencecheck\.cluster-matrix" name="cluster-matrix pubsub"[^>]*>\s*<failure message="silently wrong: 12 messages never delivered after CLIENT KILL"[^>]*>[^<]*replay: fencecheck cluster-matrix --row pubsub/,
    );
    expect(xml).toMatch(
      /<testcase classname="fencecheck\.cluster-matrix" name="cluster-matrix failover"[^>]*>\s*<skipped message="not run: errors: no replica topology; silently wrong: no replica topology"/,
    );
  });

  it('HTML/Markdown: one table, row by row, with the two verdict columns', () => {
    const view = buildView(r, new Map());
    const section = view.sections.find((s) => s.id === 'cluster-matrix');
    expect(section?.title).toBe('Cluster client matrix');
    const md = renderMarkdown(view);
    expect(md).toMatch(/\| pubsub \| pubsub surface \| ✅ passed \| ❌ FAILED: 12 messages never delivered after CLIENT KILL \| completeness % 100, lost 0, time 1\.5 s \|/);
    expect(md).toMatch(/\| failover \| failover surface \| ⚠️ not run: no replica topology \|/);
  });

  it('no stage, no section; a stage without rows shows its status, not a guessed matrix', () => {
    expect(buildView(fixtureReport(), new Map()).sections.find((s) => s.id === 'cluster-matrix')).toBeUndefined();
    const empty = buildView(withMatrix([]), new Map()).sections.find((s) => s.id === 'cluster-matrix')!;
    expect(empty.blocks.map((b) => b.kind)).toEqual(['p', 'p']);
    expect(empty.blocks[1]).toMatchObject({ kind: 'p', text: 'not run: no row ran', tone: 'warn' });
    expect(junitXml(withMatrix([]))).not.toContain('fencecheck.cluster-matrix');
    // A stage that printed no report has no section at all.
    const silent = { ...outcomeOf(rows), report: null, status: 'error' as const };
    expect(buildView({ ...fixtureReport(), stages: [...fixtureReport().stages, silent] }, new Map()).sections.find((s) => s.id === 'cluster-matrix')).toBeUndefined();
  });
});
