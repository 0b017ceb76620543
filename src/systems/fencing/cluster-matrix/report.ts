/**
 * The G2 matrix as a StageReport (`details`: G2Details) and as text (renderTable). The verify
 * reports render `details.rows` as the matrix: one row per surface, two verdict columns, figures.
 */
import { stageReport, type StageReport, type StageStatus } from '../../../core/stage-report.js';
import { renderTable } from '../../../core/table.js';
import { g2FiguresText, g2VerdictText } from '../../../report/g2-summary.js';
import { rowStatus, type RowResult } from './types.js';

export interface G2Details {
  readonly schema: 'fencecheck.cluster-matrix/1';
  /** The matrix's columns, in order: what a renderer shows. */
  readonly columns: readonly ['row', 'surface', 'errors', 'silently wrong', 'figures'];
  readonly rows: readonly RowResult[];
}

// One wording of verdicts and figures for the command and the verify reports.
export { g2VerdictText as verdictText, g2FiguresText as figuresText } from '../../../report/g2-summary.js';

export function matrixTable(rows: readonly RowResult[], width?: number): string {
  const body = rows.map((r) => [`${r.name}${r.variant && r.variant !== '' ? ` (${r.variant})` : ''}`, g2VerdictText(r.errors), g2VerdictText(r.silentlyWrong), g2FiguresText(r)]);
  return renderTable(['row', 'errors', 'silently wrong', 'figures'], body, width !== undefined ? { width } : {});
}

/** failed beats not-run: a red row is a finding even when another row could not run. */
export function matrixStatus(rows: readonly RowResult[]): StageStatus {
  const s = rows.map(rowStatus);
  return s.includes('failed') ? 'failed' : s.includes('not-run') || s.length === 0 ? 'not-run' : 'passed';
}

export function g2Report(rows: readonly RowResult[], startedAt: Date, durationMs: number): StageReport<G2Details> {
  const status = matrixStatus(rows);
  const count = (s: ReturnType<typeof rowStatus>) => rows.filter((r) => rowStatus(r) === s).length;
  const red = rows.filter((r) => rowStatus(r) !== 'passed').map((r) => `${r.name}: ${rowStatus(r)}`);
  const summary = `${rows.length} cluster matrix rows on real Valkey: ${count('passed')} passed, ${count('failed')} failed, ${count('not-run')} not run${red.length ? ` (${red.join('; ')})` : ''}`;
  const firstNotRun = rows.map((r) => [r.errors, r.silentlyWrong].find((v) => v.status === 'not-run')).find((v) => v !== undefined);
  return stageReport<G2Details>({
    stage: 'cluster-matrix',
    status,
    ...(status === 'not-run' ? { reason: firstNotRun && firstNotRun.status === 'not-run' ? firstNotRun.reason : 'no row ran' } : status === 'failed' ? { reason: red.join('; ') } : {}),
    startedAt: startedAt.toISOString(),
    durationMs,
    summary,
    counts: { rows: rows.length, passed: count('passed'), failed: count('failed'), notRun: count('not-run') },
    details: { schema: 'fencecheck.cluster-matrix/1', columns: ['row', 'surface', 'errors', 'silently wrong', 'figures'], rows },
  });
}
