/**
 * The cluster client matrix as a StageReport and as text (renderTable). `details` hold the rows
 * (schema fencecheck.cluster-matrix/1) and what the verify reports render of them
 * (src/core/report-details.ts): the section with one row per surface, two verdict columns and the
 * figures, and a JUnit suite with one case per row.
 */
import type { ReportCase, ReportDetails, ReportSection, ReportSuite, Tone } from '../../../core/report-details.js';
import { stageReport, worstStatus, type StageReport, type StageStatus } from '../../../core/stage-report.js';
import { renderTable } from '../../../core/table.js';
import { rowStatus, type RowResult, type Verdict } from './types.js';

export const CLUSTER_MATRIX_SCHEMA = 'fencecheck.cluster-matrix/1' as const;

export interface ClusterMatrixDetails extends ReportDetails {
  readonly schema: typeof CLUSTER_MATRIX_SCHEMA;
  /** The matrix's columns, in order: what a renderer shows. */
  readonly columns: readonly ['row', 'surface', 'errors', 'silently wrong', 'figures'];
  readonly rows: readonly RowResult[];
}

/** One wording of a verdict for the command and the reports: `passed`, `FAILED: …`, `not run: …`. */
export function verdictText(v: Verdict): string {
  return v.status === 'passed' ? 'passed' : v.status === 'failed' ? `FAILED: ${v.reason}` : `not run: ${v.reason}`;
}

/** `completeness % 100, lost 0, time 1.5 s`. */
export function figuresText(r: Pick<RowResult, 'figures' | 'durationMs'>): string {
  const parts = Object.entries(r.figures).map(([k, v]) => `${k} ${typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(1) : v}`);
  return [...parts, `time ${(r.durationMs / 1000).toFixed(1)} s`].join(', ');
}

const rowLabel = (r: RowResult) => (r.variant ? `${r.name} (${r.variant})` : r.name);

export function matrixTable(rows: readonly RowResult[], width?: number): string {
  const body = rows.map((r) => [rowLabel(r), verdictText(r.errors), verdictText(r.silentlyWrong), figuresText(r)]);
  return renderTable(['row', 'errors', 'silently wrong', 'figures'], body, width !== undefined ? { width } : {});
}

/** failed beats not-run: a red row is a finding even when another row could not run. */
export function matrixStatus(rows: readonly RowResult[]): StageStatus {
  return worstStatus(rows.map(rowStatus), 'not-run');
}

const TONE: Readonly<Record<Verdict['status'], Tone>> = { passed: 'ok', failed: 'bad', 'not-run': 'warn' };

export const CLUSTER_MATRIX_INTRO =
  'The cluster client matrix: each surface on a real multi-shard Valkey, with two verdicts — errors, and silently wrong (judged against the known population, message ledger or keyspace, never by the absence of errors).';

export function clusterMatrixSection(rows: readonly RowResult[]): ReportSection {
  return {
    id: 'cluster-matrix',
    title: 'Cluster client matrix',
    intro: CLUSTER_MATRIX_INTRO,
    blocks:
      rows.length === 0
        ? []
        : [
            {
              kind: 'table',
              id: 'cluster-matrix-table',
              columns: ['row', 'surface', 'errors', 'silently wrong', 'figures'],
              rows: rows.map((r) => [
                { text: rowLabel(r) },
                { text: r.surface },
                { text: verdictText(r.errors), tone: TONE[r.errors.status] },
                { text: verdictText(r.silentlyWrong), tone: TONE[r.silentlyWrong.status] },
                { text: figuresText(r) },
              ]),
            },
          ],
  };
}

/** Why a row is not green: the reasons of the verdict columns with its status (`errors: …; silently wrong: …`). */
function whyNotPassed(row: RowResult): string {
  const status = rowStatus(row);
  return [row.errors, row.silentlyWrong].flatMap((v, i) => (v.status === status && v.status !== 'passed' ? [`${i === 0 ? 'errors' : 'silently wrong'}: ${v.reason}`] : [])).join('; ');
}

/** One case per row (`cluster-matrix <row>`): red when either verdict column failed, skipped when one did not run. */
export function clusterMatrixSuite(rows: readonly RowResult[]): ReportSuite {
  return {
    name: 'cluster-matrix',
    cases: rows.map((row): ReportCase => {
      const status = rowStatus(row);
      const why = whyNotPassed(row);
      const out = `${row.surface}\nerrors: ${verdictText(row.errors)}\nsilently wrong: ${verdictText(row.silentlyWrong)}\nfigures: ${figuresText(row)}`;
      const replay = `fencecheck cluster-matrix --row ${row.name}${row.variant ? ` --variant ${row.name}=${row.variant}` : ''}`;
      const base = { name: `cluster-matrix ${rowLabel(row)}`, seconds: row.durationMs / 1000, out };
      if (status === 'passed') return { ...base, status };
      if (status === 'not-run') return { ...base, status, message: `not run: ${why}` };
      return { ...base, status, message: why, body: `${out}\nreplay: ${replay}` };
    }),
  };
}

export function clusterMatrixReport(rows: readonly RowResult[], startedAt: Date, durationMs: number): StageReport<ClusterMatrixDetails> {
  const status = matrixStatus(rows);
  const count = (s: ReturnType<typeof rowStatus>) => rows.filter((r) => rowStatus(r) === s).length;
  const red = rows.filter((r) => rowStatus(r) !== 'passed').map((r) => `${r.name}: ${rowStatus(r)}`);
  // The stage's reason is what a CI log shows: each red row with its findings, not only its name.
  const findings = rows.filter((r) => rowStatus(r) === 'failed').map((r) => `${rowLabel(r)}: ${whyNotPassed(r)}`);
  const summary = `${rows.length} cluster-matrix rows on real Valkey: ${count('passed')} passed, ${count('failed')} failed, ${count('not-run')} not run${red.length ? ` (${red.join('; ')})` : ''}`;
  const firstNotRun = rows.map((r) => [r.errors, r.silentlyWrong].find((v) => v.status === 'not-run')).find((v) => v !== undefined);
  return stageReport<ClusterMatrixDetails>({
    stage: 'cluster-matrix',
    status,
    ...(status === 'not-run' ? { reason: firstNotRun && firstNotRun.status === 'not-run' ? firstNotRun.reason : 'no row ran' } : status === 'failed' ? { reason: findings.join(' | ') } : {}),
    startedAt: startedAt.toISOString(),
    durationMs,
    summary,
    counts: { rows: rows.length, passed: count('passed'), failed: count('failed'), notRun: count('not-run') },
    details: {
      schema: CLUSTER_MATRIX_SCHEMA,
      columns: ['row', 'surface', 'errors', 'silently wrong', 'figures'],
      rows,
      sections: [clusterMatrixSection(rows)],
      ...(rows.length > 0 ? { suites: [clusterMatrixSuite(rows)] } : {}),
    },
  });
}
