import { renderTable } from '../core/table.js';
import { stateCells, stateColumns } from './steps.js';
import type { ReplayResult, ReplayStep } from './replay.js';

const RED = '\x1b[31m';
const BOLD = '\x1b[1m';
const RESET = '\x1b[0m';

/** Two rows per step: the trace's model state and the real keyspace; real cells that differ are marked. */
export function formatReplayTable(result: ReplayResult, pods: readonly string[], color: boolean): string {
  const columns = stateColumns(pods);
  const header = ['#', 'action', 'side', ...columns, 'broken', 'real system'];
  const rows: { cells: string[]; marks: Set<number>; alarm: boolean }[] = [];
  for (const s of result.steps) {
    const m = stateCells(s.model);
    const r = stateCells(s.real);
    const action = Object.values(s.params).length > 0 ? `${s.action}(${Object.values(s.params).join(',')})` : s.action;
    rows.push({ cells: [String(s.index), action, 'model', ...columns.map((c) => m[c] ?? ''), s.brokenModel.join(',') || '-', ''], marks: new Set(), alarm: false });
    const marks = new Set(s.mismatches.map((c) => 3 + columns.indexOf(c)));
    rows.push({
      cells: ['', '', 'real', ...columns.map((c, i) => (marks.has(3 + i) && !color ? `!${r[c]}` : (r[c] ?? ''))), s.brokenReal.join(',') || '-', `${s.status}: ${s.note}`],
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
  return renderTable(header, rows.map((r) => r.cells), { style });
}

/** The closing lines: where the real keyspace broke, against where the model predicted it would. */
export function replayVerdict(result: ReplayResult, stepCount: number): string {
  const at = (i: number | null) => (i === null ? 'nowhere' : `step ${i}`);
  const stop = result.stoppedAt === null ? null : result.steps[result.stoppedAt];
  const lines: string[] = [];
  if (stop) {
    const broke = stop.brokenReal.length > 0 ? `real keyspace breaks ${stop.brokenReal.join(', ')}` : 'T3 breaks on the wire';
    lines.push(`${broke} at step ${stop.index} (${stop.action}); the model predicted ${at(result.predictedAt)}.`);
    if (stop.brokenReal.includes('Inv_SingleAuthority'))
      lines.push(`two live leases on the real keyspace: old ${stop.real.oldLease.owner}/${stop.real.oldLease.gen}, new ${stop.real.newLease.owner}/${stop.real.newLease.gen}`);
    if (stop.slotBreaches.length > 0) lines.push(`T3 on the wire: ${stop.slotBreaches.join('; ')}`);
  } else {
    lines.push(`every invariant held on the real keyspace for all ${result.steps.length} of ${stepCount} steps; the model predicted a violation at ${at(result.predictedAt)}.`);
  }
  const diverged = result.steps.filter((s: ReplayStep) => s.mismatches.length > 0);
  if (diverged.length > 0) lines.push(`real keyspace differs from the model at step(s) ${diverged.map((s) => s.index).join(', ')} (marked).`);
  return lines.join('\n');
}
