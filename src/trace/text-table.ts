import type { FencingTrace } from '../core/trace-format.js';
import { renderTable } from '../core/table.js';
import { stepTable } from './steps.js';

export interface TextTableOptions {
  /** Highlight changed cells with ANSI reverse video (terminals); otherwise they are marked `*v*`. */
  readonly color: boolean;
}

const REVERSE = '\x1b[7m';
const RED = '\x1b[31m';
const RESET = '\x1b[0m';

/** The step table `fencecheck trace show` prints: one row per step, changed variables highlighted. */
export function formatStepTable(trace: FencingTrace, opts: TextTableOptions): string {
  const { columns, rows } = stepTable(trace);
  const header = ['#', 'action', 'pod', ...columns, 'broken'];
  const plain = rows.map((r) => [
    String(r.index),
    r.action,
    r.pod || '-',
    ...columns.map((c) => (r.changed.has(c) && !opts.color ? `*${r.cells[c]}*` : (r.cells[c] ?? ''))),
    r.broken.length > 0 ? r.broken.join(',') : '-',
  ]);
  const style = (padded: string, rowIndex: number, i: number) => {
    if (!opts.color || rowIndex < 0) return padded;
    const row = rows[rowIndex]!;
    const col = i - 3;
    if (col >= 0 && col < columns.length && row.changed.has(columns[col]!)) return `${REVERSE}${padded}${RESET}`;
    if (i === header.length - 1 && row.newlyBroken.length > 0) return `${RED}${padded}${RESET}`;
    return padded;
  };
  return renderTable(header, plain, { style });
}

/** One header line: where the trace comes from and what it shows. */
export function traceHeadline(trace: FencingTrace): string {
  const parts = [
    `source=${trace.source}`,
    trace.mutant ? `mutant=${trace.mutant}` : 'base',
    `pods=${trace.bounds.pods.length}`,
    `maxGen=${trace.bounds.maxGen}`,
    `${trace.steps.length} states`,
  ];
  if (trace.violated) parts.push(`violates ${trace.violated}`);
  if (trace.brokenAtEnd && trace.brokenAtEnd.length > 0) parts.push(`broken at end: ${trace.brokenAtEnd.join(',')}`);
  if (trace.loop !== undefined) parts.push(`lasso back to state ${trace.loop}`);
  if (trace.imported) parts.push(`imported from ${trace.imported.format}`);
  if (trace.seed !== undefined) parts.push(`seed=${trace.seed}`);
  if (trace.path) parts.push(`path=${trace.path}`);
  return parts.join(' · ');
}
