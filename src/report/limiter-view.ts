/**
 * The limiter table of the human report: the seed's transition table (models/limiter ROWS) with,
 * per topology, how many generated cases exercised each row (and how many calls), then the required
 * invariant tests. Read from the limiter stage's `details.runs`; null when the shape is not that.
 */
import { ROWS } from '../../models/limiter/index.js';
import type { Block, Cell } from './view.js';

interface RowStats {
  readonly casesPerRow: Readonly<Record<string, number>>;
  readonly calls: Readonly<Record<string, number>>;
}

interface LimiterRun {
  readonly topology: string;
  readonly status: string;
  readonly reason?: string;
  readonly property?: { readonly passed: boolean; readonly numRuns: number; readonly seed: number; readonly stats: RowStats };
  readonly invariants?: readonly { readonly name: string; readonly title?: string; readonly status: string; readonly detail?: string }[];
}

function isRun(v: unknown): v is LimiterRun {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Partial<LimiterRun>;
  if (typeof r.topology !== 'string' || typeof r.status !== 'string') return false;
  if (r.property !== undefined && (typeof r.property.stats?.casesPerRow !== 'object' || typeof r.property.stats?.calls !== 'object')) return false;
  return r.invariants === undefined || Array.isArray(r.invariants);
}

const TONE: Record<string, Cell['tone']> = { passed: 'ok', failed: 'bad', 'not-run': 'warn' };

export function limiterBlocks(details: unknown): Block[] | null {
  const runs = (details as { runs?: unknown } | null)?.runs;
  if (!Array.isArray(runs) || runs.length === 0 || !runs.every(isRun)) return null;
  const ran = runs.filter((r) => r.property !== undefined);
  const count = (r: LimiterRun, row: string) => `${r.property!.stats.casesPerRow[row] ?? 0} (${r.property!.stats.calls[row] ?? 0})`;
  const table: Block = {
    kind: 'table',
    id: 'limiter-table',
    columns: ['first', 'second', 'result', 'state mutation', ...ran.map((r) => `${r.topology}: cases (calls)`)],
    rows: [
      ...ROWS.map((row) => [{ text: row.first }, { text: row.second }, { text: row.result }, { text: row.mutation }, ...ran.map((r) => ({ text: count(r, row.row), ...(r.property!.stats.casesPerRow[row.row] ? {} : { tone: 'warn' as const }) }))]),
      [{ text: '(reply lost)' }, { text: 'any' }, { text: 'outcome unknown' }, { text: 'executed at most once, never re-sent' }, ...ran.map((r) => ({ text: count(r, 'unknown') }))],
    ],
  };
  const runLines = runs.map((r) =>
    r.property
      ? `${r.topology}: property ${r.property.passed ? 'held' : 'FAILED'} over ${r.property.numRuns} cases, seed ${r.property.seed}`
      : `${r.topology}: not run${r.reason ? `: ${r.reason}` : ''}`,
  );
  const names = [...new Set(runs.flatMap((r) => (r.invariants ?? []).map((i) => i.name)))];
  const invariantTable: Block = {
    kind: 'table',
    columns: ['required invariant test', ...runs.map((r) => r.topology), 'detail'],
    rows: names.map((name) => {
      const per = runs.map((r) => r.invariants?.find((i) => i.name === name));
      const first = per.find((i) => i !== undefined);
      return [
        { text: first?.title ?? name, title: name },
        ...per.map((i) => (i ? { text: i.status, ...(TONE[i.status] ? { tone: TONE[i.status]! } : {}) } : { text: '-', tone: 'muted' as const })),
        { text: [...new Set(per.map((i) => i?.detail).filter(Boolean))].join(' | ') },
      ];
    }),
  };
  return [
    { kind: 'p', text: 'Transition table (seed "Phase 1"): per row, the generated cases that exercised it and, in brackets, the calls.' },
    table,
    { kind: 'list', items: runLines },
    ...(names.length > 0 ? [invariantTable] : []),
  ];
}
