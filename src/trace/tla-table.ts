/**
 * The /1 names of the generic step table, for callers written when only one system's traces had one (the
 * reports, `tlc --spec`): every trace is now shown the same way (text-table.ts, steps.ts).
 */
import type { Trace } from '../core/trace-format.js';
import { stepTable } from './steps.js';

export { formatStepTable as formatTlaStepTable, traceHeadline as tlaHeadline } from './text-table.js';

export interface TlaRow {
  readonly index: number;
  readonly action: string;
  readonly cells: Readonly<Record<string, string>>;
  readonly changed: readonly string[];
}

/** A trace as rows: each column in TLA+ syntax, and which ones the step changed. */
export function tlaRows(trace: Trace): TlaRow[] {
  return stepTable(trace).rows.map((r) => ({ index: r.index, action: r.action, cells: r.cells, changed: [...r.changed] }));
}
