// The G2 matrix in the verify reports: read from the g2 stage's StageReport (the real g2Report of
// src/systems/fencing/cluster-matrix/report.ts), one JUnit case per row, one HTML/Markdown table; a red or unrun row shows.
import { describe, expect, it } from 'vitest';
import { g2Report } from '../../src/systems/fencing/cluster-matrix/report.js';
import type { RowResult } from '../../src/systems/fencing/cluster-matrix/types.js';
import { junitXml } from '../../src/report/junit.js';
import { g2Summary } from '../../src/report/g2-summary.js';
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

function withG2(rows: readonly RowResult[]): VerifyReport {
  const report = g2Report(rows, new Date('2026-11-30T06:00:00Z'), 3000);
  const o: StageOutcome = {
    stage: 'g2', command: ['g2', '--json'], status: report.status, ...(report.reason ? { reason: report.reason } : {}), allowedNotRun: false,
    exitCode: report.status === 'passed' ? 0 : 1, signal: null, startedAt: report.startedAt, durationMs: 3000, summary: report.summary, leftoverProcesses: 0, report,
  };
  const base = fixtureReport();
  const stages = [...base.stages, o];
  return { ...base, stages, g2: g2Summary(stages) };
}

describe('the G2 matrix in the verify reports', () => {
  const r = withG2([
    row('registry', { status: 'passed' }, { status: 'passed' }),
    row('pubsub', { status: 'passed' }, { status: 'failed', reason: '12 messages never delivered after CLIENT KILL' }),
    row('failover', { status: 'not-run', reason: 'no replica topology' }, { status: 'not-run', reason: 'no replica topology' }),
  ]);

  it('reads every row with both verdicts and the figures', () => {
    expect(r.g2?.rows.map((x) => [x.name, x.errors.status, x.silentlyWrong.status])).toEqual([
      ['registry', 'passed', 'passed'],
      ['pubsub', 'passed', 'failed'],
      ['failover', 'not-run', 'not-run'],
    ]);
  });

  it('JUnit: one case per row, a silently-wrong row fails with its reason and a replay, an unrun row is skipped', () => {
    const xml = junitXml(r);
    expect(xml).toMatch(/<testcase classname="fencecheck\.g2" name="g2 registry"[^>]*>/);
    expect(xml).toMatch(/<testcase classname="fencecheck\.g2" name="g2 pubsub"[^>]*>\s*<failure message="silently wrong: 12 messages never delivered after CLIENT KILL"[^>]*>[^<]*replay: fencecheck g2 --row pubsub/);
    expect(xml).toMatch(/<testcase classname="fencecheck\.g2" name="g2 failover"[^>]*>\s*<skipped message="not run: errors: no replica topology; silently wrong: no replica topology"/);
  });

  it('HTML/Markdown: one table, row by row, with the two verdict columns', () => {
    const view = buildView(r, new Map());
    const section = view.sections.find((s) => s.id === 'g2');
    expect(section?.title).toBe('G2 conformance matrix');
    const md = renderMarkdown(view);
    expect(md).toMatch(/\| pubsub \| pubsub surface \| ✅ passed \| ❌ FAILED: 12 messages never delivered after CLIENT KILL \| completeness % 100, lost 0, time 1\.5 s \|/);
    expect(md).toMatch(/\| failover \| failover surface \| ⚠️ not run: no replica topology \|/);
  });

  it('no g2 stage, no section; a g2 stage without a matrix shows its status, not a guessed matrix', () => {
    const plain = fixtureReport();
    expect(buildView(plain, new Map()).sections.find((s) => s.id === 'g2')).toBeUndefined();
    expect(g2Summary([{ ...withG2([]).stages.at(-1)!, report: null }])).toEqual({ status: 'not-run', rows: [] });
  });
});
