/**
 * Any JSON value as report blocks (src/core/report-details.ts), for a stage whose details have no
 * layout of their own: flat fields as key/value rows, arrays of rows as tables, nested objects a
 * few levels deep under a heading, anything else as JSON (cut at a few thousand characters).
 */
import type { ReportBlock, ReportSection } from './report-details.js';

const MAX_ROWS = 300;
const MAX_CELL = 300;
const MAX_JSON = 4000;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isRowArray = (v: unknown): v is Obj[] => Array.isArray(v) && v.length > 0 && v.every(isObj);
const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}… (${s.length - n} more characters)` : s;
}

function rowsTable(rows: readonly Obj[]): ReportBlock {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const show = (v: unknown) => (v === undefined ? '' : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
  return { kind: 'table', columns, rows: rows.slice(0, MAX_ROWS).map((r) => columns.map((c) => ({ text: truncate(show(r[c]), MAX_CELL) }))) };
}

/** `depth`: how many levels of nested objects get their own heading before the rest is shown as JSON. */
export function detailsBlocks(details: unknown, depth = 2): ReportBlock[] {
  if (isRowArray(details)) return [rowsTable(details)];
  if (!isObj(details)) return [{ kind: 'code', text: JSON.stringify(details, null, 2) ?? String(details) }];
  const kv: [string, string][] = [];
  const rest: ReportBlock[] = [];
  for (const [k, v] of Object.entries(details)) {
    if (isScalar(v)) kv.push([k, String(v)]);
    else if (Array.isArray(v) && v.every(isScalar) && v.length <= 30) kv.push([k, v.join(', ')]);
    else if (isRowArray(v)) rest.push({ kind: 'heading', text: k }, rowsTable(v));
    else if (isObj(v) && depth > 0) rest.push({ kind: 'heading', text: k }, ...detailsBlocks(v, depth - 1));
    else rest.push({ kind: 'heading', text: k }, { kind: 'code', text: truncate(JSON.stringify(v, null, 2) ?? '', MAX_JSON) });
  }
  return [...(kv.length > 0 ? [{ kind: 'kv', rows: kv } as ReportBlock] : []), ...rest];
}

/** A stage's section of its counts and its details, shown generically. */
export function detailsSection(o: {
  readonly id: string;
  readonly title: string;
  readonly intro?: string;
  readonly counts?: Readonly<Record<string, number>>;
  readonly details?: unknown;
}): ReportSection {
  const counts = o.counts && Object.keys(o.counts).length > 0 ? [{ kind: 'kv', rows: Object.entries(o.counts).map(([k, v]) => [k, String(v)] as const) } as ReportBlock] : [];
  return { id: o.id, title: o.title, ...(o.intro !== undefined ? { intro: o.intro } : {}), blocks: [...counts, ...(o.details !== undefined ? detailsBlocks(o.details) : [])] };
}
