import type { TraceLike } from '../core/trace-format.js';
import { renderTable } from '../core/table.js';
import { boundsLabel } from '../seam/system.js';
import { asTrace } from './load.js';
import { stepTable } from './steps.js';

export interface TextTableOptions {
  /** Highlight changed cells with ANSI reverse video (terminals); otherwise they are marked `*v*`. */
  readonly color: boolean;
}

const REVERSE = '\x1b[7m';
const RED = '\x1b[31m';
const RESET = '\x1b[0m';

/**
 * The step table `fencecheck trace show` prints for a trace of any system: one row per step (the
 * action with its arguments, every column of steps.ts), changed cells highlighted, and the invariants
 * each state breaks when the trace records them.
 */
export function formatStepTable(trace: TraceLike, opts: TextTableOptions): string {
  const { columns, rows, judged } = stepTable(trace);
  const header = ['#', 'action', ...columns, ...(judged ? ['broken'] : [])];
  const plain = rows.map((r) => [
    String(r.index),
    r.action,
    ...columns.map((c) => (r.changed.has(c) && !opts.color ? `*${r.cells[c]}*` : (r.cells[c] ?? ''))),
    ...(judged ? [r.broken.length > 0 ? r.broken.join(',') : '-'] : []),
  ]);
  const style = (padded: string, rowIndex: number, i: number) => {
    if (!opts.color || rowIndex < 0) return padded;
    const row = rows[rowIndex]!;
    const col = i - 2;
    if (col >= 0 && col < columns.length && row.changed.has(columns[col]!)) return `${REVERSE}${padded}${RESET}`;
    if (judged && i === header.length - 1 && row.newlyBroken.length > 0) return `${RED}${padded}${RESET}`;
    return padded;
  };
  return renderTable(header, plain, { style });
}

/** One header line: which system and layer the trace comes from and what it shows. */
export function traceHeadline(any: TraceLike): string {
  const trace = asTrace(any);
  const parts = [`system=${trace.system}`, `source=${trace.source}`];
  if (trace.spec !== undefined) parts.push(`spec=${trace.spec}`);
  parts.push(trace.mutant ? `mutant=${trace.mutant}` : trace.patch ? `patch=${trace.patch.path}` : 'base');
  if (trace.bounds !== undefined) parts.push(boundsLabel(trace.bounds));
  parts.push(`${trace.vars.length} variables`, `${trace.steps.length} states`);
  if (trace.violated) parts.push(`violates ${trace.violated}`);
  if (trace.brokenAtEnd && trace.brokenAtEnd.length > 0) parts.push(`broken at end: ${trace.brokenAtEnd.join(',')}`);
  if (trace.loop !== undefined) parts.push(`lasso back to state ${trace.loop}`);
  if (trace.imported) parts.push(`imported from ${trace.imported.format}`);
  if (trace.seed !== undefined) parts.push(`seed=${trace.seed}`);
  if (trace.path) parts.push(`path=${trace.path}`);
  return parts.join(' · ');
}
