import { renderTable } from '../core/table.js';
import type { TlaTrace } from '../core/trace-format.js';
import { formatItf } from './itf-value.js';

const REVERSE = '\x1b[7m';
const RESET = '\x1b[0m';

export interface TlaRow {
  readonly index: number;
  readonly action: string;
  readonly cells: Readonly<Record<string, string>>;
  readonly changed: readonly string[];
}

/** A `system: "tla"` trace as rows: each variable in TLA+ syntax, and which ones the step changed. */
export function tlaRows(trace: TlaTrace): TlaRow[] {
  let prev: Record<string, string> | undefined;
  return trace.steps.map((s, index) => {
    const cells = Object.fromEntries(trace.vars.map((v) => [v, s.state[v] === undefined ? '' : formatItf(s.state[v]!)]));
    const changed = prev ? trace.vars.filter((v) => cells[v] !== prev![v]) : [];
    prev = cells;
    const args = Object.values(s.params).map(formatItf);
    return { index, action: args.length > 0 ? `${s.action}(${args.join(',')})` : s.action, cells, changed };
  });
}

/** The table `trace show` prints for a trace of another spec: changed values highlighted (`*v*` without colour). */
export function formatTlaStepTable(trace: TlaTrace, opts: { color: boolean }): string {
  const rows = tlaRows(trace);
  const header = ['#', 'action', ...trace.vars];
  const cells = rows.map((r) => [String(r.index), r.action, ...trace.vars.map((v) => (r.changed.includes(v) && !opts.color ? `*${r.cells[v]}*` : (r.cells[v] ?? '')))]);
  const style = (padded: string, row: number, col: number) => {
    if (!opts.color || row < 0) return padded;
    const v = trace.vars[col - 2];
    return v !== undefined && rows[row]!.changed.includes(v) ? `${REVERSE}${padded}${RESET}` : padded;
  };
  return renderTable(header, cells, { style });
}

export function tlaHeadline(trace: TlaTrace): string {
  return [
    `source=${trace.source}`,
    `spec=${trace.spec ?? 'unknown'}`,
    `${trace.vars.length} variables`,
    `${trace.steps.length} states`,
    ...(trace.violated ? [`violates ${trace.violated}`] : []),
    ...(trace.loop !== undefined ? [`lasso back to state ${trace.loop}`] : []),
  ].join(' · ');
}
