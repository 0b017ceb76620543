/**
 * What `fencecheck limiter` reports: per topology, the property run over generated cases and the
 * required invariant tests. As text for the terminal, and as the verify reports' section
 * (src/core/report-details.ts): the transition table of the reference model (models/limiter ROWS)
 * with, per topology, how many generated cases exercised each row (and how many calls), the runs,
 * then the invariant tests.
 */
import type { ReportBlock, ReportCell, ReportSection, Tone } from '../../core/report-details.js';
import { renderTable } from '../../core/table.js';
import { ROWS } from '../../../models/limiter/index.js';
import { replayHint, type LimiterPropertyResult } from '../../../properties/limiter/property.js';
import type { InvariantOutcome } from '../../../properties/limiter/invariants.js';
import type { RowKey, RowStats } from '../../../properties/limiter/harness.js';
import type { Fault } from '../../valkey/fault.js';

export type LimiterTopology = 'standalone' | 'cluster';

/** One topology's run: the property and the invariant tests, or why it did not run. */
export interface TopologyRun {
  readonly topology: LimiterTopology;
  readonly status: 'ran' | 'not-run';
  readonly reason?: string;
  /** The infrastructure fault that made it not-run, if one did. */
  readonly fault?: Fault;
  readonly property?: LimiterPropertyResult;
  readonly invariants?: readonly InvariantOutcome[];
}

type Ran = TopologyRun & { readonly property: LimiterPropertyResult };
const ran = (runs: readonly TopologyRun[]): Ran[] => runs.filter((r): r is Ran => r.property !== undefined);

const cellText = (s: RowStats, row: RowKey) => `${s.casesPerRow[row] ?? 0} (${s.calls[row] ?? 0})`;

/** The transition table's rows (the model's, then the lost reply), one column per topology that ran. */
function tableRows(): { readonly label: readonly string[]; readonly row: RowKey }[] {
  return [
    ...ROWS.map((r) => ({ label: [r.first, r.second, r.result, r.mutation], row: r.row })),
    { label: ['(reply lost)', 'any', 'outcome unknown', 'executed at most once, never re-sent'], row: 'unknown' as RowKey },
  ];
}

/** The command that replays the first failing topology's counterexample (`patch`: the --patch given). */
export function limiterReplay(runs: readonly TopologyRun[], patch?: string): string | undefined {
  const failed = ran(runs).find((r) => !r.property.passed && r.property.fault === undefined);
  return failed ? `fencecheck limiter --topology ${failed.topology} ${replayHint(failed.property)}${patch ? ` --patch ${patch}` : ''}` : undefined;
}

/** The terminal's text: the table, one line per topology and invariant test, the summary. */
export function limiterText(runs: readonly TopologyRun[], summary: string, patch?: string): string {
  const done = ran(runs);
  const out: string[] = ['Transition table — per row: generated cases that exercised it (calls)'];
  const header = ['first', 'second', 'result', 'state mutation', ...done.map((r) => r.topology)];
  const rows = tableRows().map((t) => [...t.label, ...done.map((r) => cellText(r.property.stats, t.row))]);
  out.push(renderTable(header, rows), '');
  for (const r of runs) {
    if (r.status === 'not-run') {
      out.push(`[${r.topology}] not run: ${r.reason}`);
      continue;
    }
    const p = r.property!;
    out.push(
      p.passed
        ? `[${r.topology}] property held: ${p.numRuns} cases, seed ${p.seed}${p.faults ? ' (with lost-reply faults)' : ''}`
        : `[${r.topology}] property FAILED (${p.violated}) after ${p.numRuns} cases: ${p.message}\n  replay: fencecheck limiter --topology ${r.topology} ${replayHint(p)}${patch ? ` --patch ${patch}` : ''}\n  counterexample: ${JSON.stringify(p.counterexample)}`,
    );
    for (const i of r.invariants ?? []) out.push(`  ${i.status.padEnd(7)} ${i.name}: ${i.detail}`);
  }
  out.push('', summary);
  return out.join('\n');
}

const TONE: Readonly<Record<string, Tone>> = { passed: 'ok', failed: 'bad', 'not-run': 'warn' };

/** The verify reports' limiter section. */
export function limiterSection(runs: readonly TopologyRun[]): ReportSection {
  const done = ran(runs);
  const table: ReportBlock = {
    kind: 'table',
    id: 'limiter-table',
    columns: ['first', 'second', 'result', 'state mutation', ...done.map((r) => `${r.topology}: cases (calls)`)],
    rows: tableRows().map((t) => [
      ...t.label.map((text): ReportCell => ({ text })),
      // A row no generated case exercised is flagged.
      ...done.map((r): ReportCell => ({ text: cellText(r.property.stats, t.row), ...(r.property.stats.casesPerRow[t.row] || t.row === 'unknown' ? {} : { tone: 'warn' }) })),
    ]),
  };
  const runLines = runs.map((r) =>
    r.property
      ? `${r.topology}: property ${r.property.passed ? 'held' : 'FAILED'} over ${r.property.numRuns} cases, seed ${r.property.seed}`
      : `${r.topology}: not run${r.reason ? `: ${r.reason}` : ''}`,
  );
  const names = [...new Set(runs.flatMap((r) => (r.invariants ?? []).map((i) => i.name)))];
  const invariantTable: ReportBlock = {
    kind: 'table',
    columns: ['required invariant test', ...runs.map((r) => r.topology), 'detail'],
    rows: names.map((name) => {
      const per = runs.map((r) => r.invariants?.find((i) => i.name === name));
      const first = per.find((i) => i !== undefined);
      return [
        { text: first?.title ?? name, title: name },
        ...per.map((i): ReportCell => (i ? { text: i.status, ...(TONE[i.status] ? { tone: TONE[i.status]! } : {}) } : { text: '-', tone: 'muted' })),
        { text: [...new Set(per.map((i) => i?.detail).filter(Boolean))].join(' | ') },
      ];
    }),
  };
  return {
    id: 'stage-limiter',
    title: 'Limiter table',
    intro: 'The ordered two-bucket limiter: transition-table rows and how many generated cases exercised each.',
    blocks: [
      { kind: 'p', text: 'Transition table of the reference model: per row, the generated cases that exercised it and, in brackets, the calls.' },
      table,
      { kind: 'list', items: runLines },
      ...(names.length > 0 ? [invariantTable] : []),
    ],
  };
}
