/**
 * The G2 conformance matrix for the verify reports, read from the g2 stage's StageReport
 * (`details`: src/systems/fencing/cluster-matrix/report.ts G2Details, schema fencecheck.g2/1). What does not match that shape
 * is left out, never guessed. One row per surface, two verdict columns (errors, silently wrong).
 */
import type { StageOutcome } from './verify-doc.js';

export type G2Verdict = { readonly status: 'passed' } | { readonly status: 'failed' | 'not-run'; readonly reason: string };

export interface G2RowSummary {
  readonly name: string;
  readonly surface: string;
  readonly variant: string;
  readonly durationMs: number;
  readonly errors: G2Verdict;
  readonly silentlyWrong: G2Verdict;
  readonly figures: Readonly<Record<string, number | string>>;
}

export interface G2Summary {
  readonly status: StageOutcome['status'];
  readonly rows: readonly G2RowSummary[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function verdict(v: unknown): G2Verdict | null {
  if (!isObj(v)) return null;
  if (v.status === 'passed') return { status: 'passed' };
  if ((v.status === 'failed' || v.status === 'not-run') && typeof v.reason === 'string') return { status: v.status, reason: v.reason };
  return null;
}

function row(v: unknown): G2RowSummary | null {
  if (!isObj(v) || typeof v.name !== 'string' || typeof v.surface !== 'string') return null;
  const errors = verdict(v.errors);
  const silentlyWrong = verdict(v.silentlyWrong);
  if (!errors || !silentlyWrong) return null;
  const figures = isObj(v.figures) ? Object.fromEntries(Object.entries(v.figures).filter((e): e is [string, number | string] => typeof e[1] === 'number' || typeof e[1] === 'string')) : {};
  return { name: v.name, surface: v.surface, variant: typeof v.variant === 'string' ? v.variant : '', durationMs: typeof v.durationMs === 'number' ? v.durationMs : 0, errors, silentlyWrong, figures };
}

/** null when the g2 stage was not selected or printed no matrix. */
export function g2Summary(stages: readonly StageOutcome[]): G2Summary | null {
  const o = stages.find((s) => s.stage === 'cluster-matrix');
  const d = o?.report?.details;
  if (!o || !isObj(d) || d.schema !== 'fencecheck.cluster-matrix/1' || !Array.isArray(d.rows)) return o ? { status: o.status, rows: [] } : null;
  return { status: o.status, rows: d.rows.map(row).filter((r): r is G2RowSummary => r !== null) };
}

/** A row is red when either column failed, not run when either did not run. */
export function g2RowStatus(r: G2RowSummary): 'passed' | 'failed' | 'not-run' {
  const s = [r.errors.status, r.silentlyWrong.status];
  return s.includes('failed') ? 'failed' : s.includes('not-run') ? 'not-run' : 'passed';
}

export function g2VerdictText(v: G2Verdict): string {
  return v.status === 'passed' ? 'passed' : v.status === 'failed' ? `FAILED: ${v.reason}` : `not run: ${v.reason}`;
}

export function g2FiguresText(r: G2RowSummary): string {
  const parts = Object.entries(r.figures).map(([k, v]) => `${k} ${typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(1) : v}`);
  return [...parts, `time ${(r.durationMs / 1000).toFixed(1)} s`].join(', ');
}
