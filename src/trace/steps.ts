/**
 * A trace as rows of display cells: one column per spec variable (version split per pod), the
 * variables each step changed, and the invariants each state breaks. Every renderer (text table,
 * Markdown, HTML) reads these rows, so they agree on what "changed" means.
 */
import { brokenInvariants } from '../systems/fencing/invariants.js';
import { comparePods, type FencingBounds, type FencingState, type Pod } from '../systems/fencing/state.js';
import type { FencingTrace, TraceStep } from '../core/trace-format.js';

export interface StepRow {
  readonly index: number;
  readonly action: string;
  /** The pod parameter, or '' for fleet/operator actions. */
  readonly pod: string;
  /** Column name → display value, in `columns` order. */
  readonly cells: Readonly<Record<string, string>>;
  /** Columns whose value differs from the previous step (empty for the first step). */
  readonly changed: ReadonlySet<string>;
  /** Invariants the state after this step breaks. */
  readonly broken: readonly string[];
  /** Invariants broken here that were not broken one step before. */
  readonly newlyBroken: readonly string[];
}

export interface StepTable {
  readonly columns: readonly string[];
  readonly rows: readonly StepRow[];
}

/** The state variables in display order; `version` is split into one column per pod. */
export function stateColumns(pods: readonly string[]): string[] {
  return [...[...pods].sort(comparePods), 'target', 'oldLease', 'newLease', 'oldGen', 'newGen', 'backfilled', 'mode', 'lastIssued', 'monoOk'];
}

export function stateCells(s: FencingState): Record<string, string> {
  const cells: Record<string, string> = {};
  for (const [p, v] of Object.entries(s.version)) cells[p] = v;
  cells.target = s.target;
  cells.oldLease = `${s.oldLease.owner}/${s.oldLease.gen}`;
  cells.newLease = `${s.newLease.owner}/${s.newLease.gen}`;
  cells.oldGen = String(s.oldGen);
  cells.newGen = String(s.newGen);
  cells.backfilled = s.backfilled ? 'T' : 'F';
  cells.mode = s.mode;
  cells.lastIssued = String(s.lastIssued);
  cells.monoOk = s.monoOk ? 'T' : 'F';
  return cells;
}

/** The pod a step acts on: its `p` parameter, or any parameter naming a pod. */
export function stepPod(step: TraceStep): Pod | '' {
  const p = step.params.p ?? Object.values(step.params).find((v) => typeof v === 'string' && /^p\d+$/.test(v));
  return typeof p === 'string' && /^p\d+$/.test(p) ? (p as Pod) : '';
}

/** A compact rendering of an action and its parameters, e.g. `AcquireB(p1)`. */
export function actionLabel(step: TraceStep): string {
  const args = Object.values(step.params).map(String);
  return args.length > 0 ? `${step.action}(${args.join(',')})` : step.action;
}

/**
 * A refused attempt: a property run (`observed.status: "refused"`) or the conformance tour
 * (`observed.decision: "refused"`) recorded an attempt the system turned down; the state did not
 * change. Returns the refusal's note ('' when none was recorded), or null for a step that moved.
 */
export function refusal(step: TraceStep): string | null {
  const o = step.observed;
  if (!o || (o.status !== 'refused' && o.decision !== 'refused')) return null;
  return typeof o.note === 'string' ? o.note : '';
}

/** Indexes of the refused steps. */
export function refusedSteps(trace: FencingTrace): ReadonlySet<number> {
  return new Set(trace.steps.flatMap((s, i) => (refusal(s) !== null ? [i] : [])));
}

/** `✗ refused: AcquireB(p1) — held by p2/1`. */
export function refusedLabel(step: TraceStep): string {
  const note = refusal(step);
  return `✗ refused: ${actionLabel(step)}${note ? ` — ${note}` : ''}`;
}

export function stepTable(trace: FencingTrace): StepTable {
  const bounds: FencingBounds = trace.bounds;
  const columns = stateColumns(Object.keys(trace.steps[0]?.state.version ?? {}).length > 0 ? Object.keys(trace.steps[0]!.state.version) : bounds.pods);
  const rows: StepRow[] = [];
  let prev: Record<string, string> | null = null;
  let prevBroken: readonly string[] = [];
  trace.steps.forEach((step, index) => {
    const cells = stateCells(step.state);
    const changed = new Set(prev ? columns.filter((c) => cells[c] !== prev![c]) : []);
    const broken = brokenInvariants(step.state, bounds);
    rows.push({
      index,
      action: step.action,
      pod: stepPod(step),
      cells,
      changed,
      broken,
      newlyBroken: broken.filter((b) => !prevBroken.includes(b)),
    });
    prev = cells;
    prevBroken = broken;
  });
  return { columns, rows };
}

/** The first step whose state breaks an invariant, or -1. */
export function firstBrokenStep(table: StepTable): number {
  return table.rows.findIndex((r) => r.broken.length > 0);
}
