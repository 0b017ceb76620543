import { renderTable } from '../core/table.js';
import { TRACE_SCHEMA, type Trace } from '../core/trace-format.js';
import type { ReplayResult, ReplayStep } from './replay.js';
import { actionLabel, stepCells, traceColumns } from './steps.js';

const RED = '\x1b[31m';
const BOLD = '\x1b[1m';
const RESET = '\x1b[0m';

/** The trace's and the real states of a replay as one trace, for the columns (a function split the same way on both sides). */
function sides(result: ReplayResult, vars: readonly string[]): Trace {
  const steps = result.steps.flatMap((s) => [
    { action: s.action, params: s.params, state: s.model },
    { action: s.action, params: s.params, state: s.real },
  ]);
  return { schema: TRACE_SCHEMA, system: result.system, source: 'model', vars, steps };
}

/** Two rows per step: the trace's state and the real system's; real cells that differ are marked. */
export function formatReplayTable(result: ReplayResult, vars: readonly string[], color: boolean): string {
  const cols = traceColumns(sides(result, vars));
  const header = ['#', 'action', 'side', ...cols.map((c) => c.name), 'broken', 'real system'];
  const rows: { cells: string[]; marks: Set<number>; alarm: boolean }[] = [];
  for (const s of result.steps) {
    const m = stepCells({ state: s.model }, cols);
    const r = stepCells({ state: s.real }, cols);
    rows.push({ cells: [String(s.index), actionLabel(s), 'model', ...cols.map((c) => m[c.name] ?? ''), s.brokenModel.join(',') || '-', ''], marks: new Set(), alarm: false });
    const marks = new Set(cols.flatMap((c, i) => (s.mismatches.includes(c.variable) && m[c.name] !== r[c.name] ? [3 + i] : [])));
    rows.push({
      cells: ['', '', 'real', ...cols.map((c, i) => (marks.has(3 + i) && !color ? `!${r[c.name]}` : (r[c.name] ?? ''))), s.brokenReal.join(',') || '-', `${s.status}: ${s.note}`],
      marks,
      alarm: s.brokenReal.length > 0,
    });
  }
  const style = (padded: string, row: number, i: number) => {
    const r = rows[row];
    if (!color || !r) return padded;
    if (r.marks.has(i)) return `${BOLD}${RED}${padded}${RESET}`;
    if (r.alarm && i === header.length - 2) return `${RED}${padded}${RESET}`;
    return padded;
  };
  return renderTable(
    header,
    rows.map((r) => r.cells),
    { style },
  );
}

/** The closing lines: where the real system broke, against where the trace predicted it would. */
export function replayVerdict(result: ReplayResult, stepCount: number, vars: readonly string[]): string {
  const at = (i: number | null) => (i === null ? 'nowhere' : `step ${i}`);
  const stop = result.stoppedAt === null ? null : result.steps[result.stoppedAt];
  const lines: string[] = [];
  // A tour's finding (Conformance, TTL, the read side, …) against the one the trace recorded; else an invariant against the trace's prediction.
  const predicted = result.recorded ? `the trace recorded ${result.recorded.check} at step ${result.recorded.at}` : `the trace predicted ${at(result.predictedAt)}`;
  if (stop?.finding) {
    lines.push(`the real system fails ${stop.finding.check} at step ${stop.index} (${actionLabel(stop)}); ${predicted}.`);
    lines.push(`${stop.finding.check}: ${stop.finding.message}`);
  } else if (stop) {
    const broke = stop.brokenReal.length > 0 ? `the real system breaks ${stop.brokenReal.join(', ')}` : `the real system breaks a check outside its state`;
    lines.push(`${broke} at step ${stop.index} (${actionLabel(stop)}); ${predicted}.`);
    const before = result.steps[stop.index - 1];
    if (before) {
      const cols = traceColumns(sides(result, vars));
      const was = stepCells({ ...before, state: before.real }, cols);
      const now = stepCells({ ...stop, state: stop.real }, cols);
      const changed = cols.filter((c) => was[c.name] !== now[c.name]).map((c) => `${c.name} = ${now[c.name]}`);
      if (changed.length > 0) lines.push(`the real state after it: ${changed.join(', ')}`);
    }
    for (const b of stop.breaches) lines.push(b);
  } else {
    lines.push(
      result.recorded
        ? `every check held on the real system for all ${result.steps.length} of ${stepCount} steps; ${predicted}.`
        : `every invariant held on the real system for all ${result.steps.length} of ${stepCount} steps; the trace predicted a violation at ${at(result.predictedAt)}.`,
    );
  }
  const diverged = result.steps.filter((s: ReplayStep) => s.mismatches.length > 0);
  if (diverged.length > 0) lines.push(`the real state differs from the trace's at step(s) ${diverged.map((s) => s.index).join(', ')} (marked).`);
  return lines.join('\n');
}
