/**
 * A trace of any system as rows of display cells: one column per spec variable, in `vars` order — a
 * variable that is a function of a few model values in every step (a per-pod or per-replica
 * variable) is split into one column per argument, `var[arg]` — the variables each step
 * changed, and the invariants each state breaks. Values print as TLA+ (model values and other
 * identifier strings unquoted). Every renderer (text table, Markdown, HTML, the diagrams) reads these
 * rows, so they agree on what "changed" means; none knows a system.
 */
import { itfText, type ItfValue } from '../core/itf-value.js';
import type { TraceLike, Step, Trace, TraceStep } from '../core/trace-format.js';
import { asTrace } from './load.js';

export interface StepRow {
  readonly index: number;
  /** The action with its arguments, e.g. `AcquireB(p1)`. */
  readonly action: string;
  /** The step's actor: the first model value among its arguments (`p1`, `r2`), or '' for an action of no one. */
  readonly pod: string;
  /** Column name → display value, in `columns` order. */
  readonly cells: Readonly<Record<string, string>>;
  /** Columns whose value differs from the previous step (empty for the first step). */
  readonly changed: ReadonlySet<string>;
  /** Invariants the state after this step breaks (as the trace records them). */
  readonly broken: readonly string[];
  /** Invariants broken here that were not broken one step before. */
  readonly newlyBroken: readonly string[];
}

export interface StepTable {
  readonly columns: readonly string[];
  readonly rows: readonly StepRow[];
  /** Whether the trace records which invariants its states break (a foreign spec's does not). */
  readonly judged: boolean;
}

/** One display column: a variable, one argument's entry of a function-valued variable, or one field of a record-valued one. */
export interface Column {
  readonly name: string;
  readonly variable: string;
  /** The function's argument, for a split function. */
  readonly key?: ItfValue;
  /** The record's field, for a split record. */
  readonly field?: string;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A function with at most this many arguments, or a record with at most this many fields, is split into columns. */
const MAX_SPLIT = 6;

/** A value as a cell: TLA+ syntax, with identifier-like strings (model values) unquoted. */
export const cellText = itfText;

function mapPairs(v: ItfValue | undefined): readonly (readonly [ItfValue, ItfValue])[] | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && '#map' in v ? (v as { '#map': readonly (readonly [ItfValue, ItfValue])[] })['#map'] : undefined;
}

function recordFields(v: ItfValue | undefined): Readonly<Record<string, ItfValue>> | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const keys = Object.keys(v);
  return keys.length > 0 && keys.every((k) => !k.startsWith('#')) ? (v as Readonly<Record<string, ItfValue>>) : undefined;
}

const atomKey = (k: ItfValue): boolean => typeof k === 'string' || (typeof k === 'object' && k !== null && '#bigint' in k);
const sameList = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((x, i) => JSON.stringify(x) === JSON.stringify(b[i]));

/**
 * The display columns of a trace. A variable that is, in every step, a function of the same few atoms
 * (a per-pod or per-replica variable) is split per argument, `version[p1]`; one that is a record with
 * the same few fields, per field, `oldLease.owner`. Anything else is one column.
 */
export function traceColumns(trace: Trace): Column[] {
  const out: Column[] = [];
  for (const v of trace.vars) {
    const values = trace.steps.map((s) => s.state[v]);
    const keys = mapPairs(values[0])?.map(([k]) => k);
    if (
      keys &&
      keys.length > 0 &&
      keys.length <= MAX_SPLIT &&
      keys.every(atomKey) &&
      values.every((x) => {
        const p = mapPairs(x);
        return (
          p !== undefined &&
          sameList(
            p.map(([k]) => k),
            keys,
          )
        );
      })
    ) {
      for (const k of keys) out.push({ name: `${v}[${cellText(k)}]`, variable: v, key: k });
      continue;
    }
    const fields = recordFields(values[0]) && Object.keys(recordFields(values[0])!);
    if (
      fields &&
      fields.length <= MAX_SPLIT &&
      values.every((x) => {
        const r = recordFields(x);
        return r !== undefined && sameList(Object.keys(r), fields);
      })
    ) {
      for (const f of fields) out.push({ name: `${v}.${f}`, variable: v, field: f });
      continue;
    }
    out.push({ name: v, variable: v });
  }
  return out;
}

/** A step's cells for these columns ('' for a variable the state lacks). */
export function stepCells(step: Pick<Step, 'state'>, columns: readonly Column[]): Record<string, string> {
  const cells: Record<string, string> = {};
  for (const c of columns) {
    const v = step.state[c.variable];
    let x: ItfValue | undefined = v;
    if (v !== undefined && c.key !== undefined) x = mapPairs(v)?.find(([k]) => JSON.stringify(k) === JSON.stringify(c.key))?.[1];
    else if (v !== undefined && c.field !== undefined) x = recordFields(v)?.[c.field];
    cells[c.name] = x === undefined ? '' : cellText(x);
  }
  return cells;
}

/** The first model value among a value's parts, depth first. */
function firstAtom(v: ItfValue): string | undefined {
  if (typeof v === 'string') return IDENT.test(v) ? v : undefined;
  if (typeof v !== 'object' || v === null) return undefined;
  if (Array.isArray(v)) return v.map(firstAtom).find((x) => x !== undefined);
  const o = v as Record<string, unknown>;
  if ('#bigint' in o || '#unserializable' in o || '#set' in o || '#map' in o) return undefined;
  if ('#tup' in o) return (o['#tup'] as ItfValue[]).map(firstAtom).find((x) => x !== undefined);
  return Object.values(o)
    .map((x) => firstAtom(x as ItfValue))
    .find((x) => x !== undefined);
}

/** Who takes a step: the first model value among its parameters (`p1` of AcquireB(p1), `r1` of Deliver(r1, e)), or ''. */
export function stepActor(step: Pick<Step, 'params'>): string {
  for (const v of Object.values(step.params)) {
    const a = firstAtom(v as ItfValue);
    if (a !== undefined) return a;
  }
  return '';
}

/** @deprecated the /1 name of stepActor. */
export const stepPod = stepActor;

function paramText(v: unknown): string {
  return typeof v === 'number' ? String(v) : cellText(v as ItfValue);
}

/** A compact rendering of an action and its parameters, e.g. `AcquireB(p1)`, `Deliver(r1, [paused |-> TRUE, version |-> 1])`. */
export function actionLabel(step: Pick<TraceStep, 'action' | 'params'>): string {
  const args = Object.values(step.params).map(paramText);
  return args.length > 0 ? `${step.action}(${args.join(', ')})` : step.action;
}

/**
 * A refused attempt: a property run (`observed.status: "refused"`) or a tour (`observed.decision:
 * "refused"`) recorded an attempt the system turned down; the state did not change. Returns the
 * refusal's note ('' when none was recorded), or null for a step that moved.
 */
export function refusal(step: TraceStep): string | null {
  const o = step.observed;
  if (!o || (o.status !== 'refused' && o.decision !== 'refused')) return null;
  const note = 'note' in step && typeof step.note === 'string' ? step.note : o.note;
  return typeof note === 'string' ? note : '';
}

/** Indexes of the refused steps. */
export function refusedSteps(trace: TraceLike): ReadonlySet<number> {
  return new Set(trace.steps.flatMap((s, i) => (refusal(s) !== null ? [i] : [])));
}

/** `✗ refused: AcquireB(p1) — held by p2/1`. */
export function refusedLabel(step: TraceStep): string {
  const note = refusal(step);
  return `✗ refused: ${actionLabel(step)}${note ? ` — ${note}` : ''}`;
}

/** The invariants a step's state breaks: as recorded, the last step's from brokenAtEnd when it records none. */
export function stepBroken(trace: Trace, index: number): readonly string[] | undefined {
  const s = trace.steps[index]!;
  if (s.broken !== undefined) return s.broken;
  return index === trace.steps.length - 1 ? trace.brokenAtEnd : undefined;
}

export function stepTable(any: TraceLike): StepTable {
  const trace = asTrace(any);
  const cols = traceColumns(trace);
  const columns = cols.map((c) => c.name);
  const rows: StepRow[] = [];
  let prev: Record<string, string> | null = null;
  let prevBroken: readonly string[] = [];
  let judged = false;
  trace.steps.forEach((step, index) => {
    const cells = stepCells(step, cols);
    const changed = new Set(prev ? columns.filter((c) => cells[c] !== prev![c]) : []);
    const recorded = stepBroken(trace, index);
    if (recorded !== undefined) judged = true;
    const broken = recorded ?? [];
    rows.push({ index, action: actionLabel(step), pod: stepActor(step), cells, changed, broken, newlyBroken: broken.filter((b) => !prevBroken.includes(b)) });
    prev = cells;
    prevBroken = broken;
  });
  return { columns, rows, judged };
}

/** The first step whose state breaks an invariant, or -1. */
export function firstBrokenStep(table: StepTable): number {
  return table.rows.findIndex((r) => r.broken.length > 0);
}
