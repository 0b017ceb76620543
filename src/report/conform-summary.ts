/**
 * The conformance tour's figures for the verify document and its reports, read from the conform
 * stage's StageReport: `counts` (states/modelStates, transitions/modelTransitions, refused/modelRefused,
 * attempts, realStates, tourMs) and `details` (byAction, checks, bounds, failure, replay). The stage
 * owns that shape (src/cli/commands/conform.ts); what does not match it is left out, never guessed.
 */
import type { ConformActionRow, ConformFailure, ConformFigure, ConformSummary, StageOutcome } from './verify-doc.js';
import { coveragePercent } from '../core/percent.js';

export { coveragePercent };

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);


export function figure(executed: number, model: number): ConformFigure {
  return { executed, model, percent: coveragePercent(executed, model) };
}

/** `624 / 624 (100.0 %)`. */
export function figureText(f: ConformFigure): string {
  return `${f.executed} / ${f.model} (${f.percent.toFixed(1)} %)`;
}

export function figureComplete(f: ConformFigure): boolean {
  return f.executed >= f.model;
}

/** An action row's figures in words, leaving out what the model has none of: `transitions 3 / 624 (0.5 %)`. */
export function actionFiguresText(row: ConformActionRow): string {
  const parts = [
    ...(row.transitions.model > 0 || row.transitions.executed > 0 ? [`transitions ${figureText(row.transitions)}`] : []),
    ...(row.refused.model > 0 || row.refused.executed > 0 ? [`refused attempts ${figureText(row.refused)}`] : []),
  ];
  return parts.join(', ') || 'nothing in the model';
}

/** The byAction row an attempt label belongs to: `acquire(p1)` → `acquire`, `renew(p2@3)` → `renew`, `AdvanceTarget` stays. */
export function attemptRow(attempt: string): string {
  return attempt.replace(/\(.*$/, '').trim();
}

function actionRows(byAction: unknown, mismatchRow: string | undefined): ConformActionRow[] | undefined {
  if (!isObj(byAction)) return undefined;
  const rows: ConformActionRow[] = [];
  for (const [action, c] of Object.entries(byAction)) {
    if (!isObj(c)) return undefined;
    const mt = num(c.modelTransitions);
    const t = num(c.transitions);
    const mr = num(c.modelRefused);
    const r = num(c.refused);
    if (mt === undefined || t === undefined || mr === undefined || r === undefined) return undefined;
    const transitions = figure(t, mt);
    const refused = figure(r, mr);
    rows.push({
      action,
      transitions,
      refused,
      percent: coveragePercent(Math.min(t, mt) + Math.min(r, mr), mt + mr),
      complete: figureComplete(transitions) && figureComplete(refused),
      mismatch: action === mismatchRow,
    });
  }
  // The order `fencecheck conform` prints its table in.
  return rows.sort((a, b) => a.action.localeCompare(b.action));
}

function failureOf(v: unknown): ConformFailure | null | undefined {
  if (v === null || v === undefined) return v === null ? null : undefined;
  if (!isObj(v) || typeof v.check !== 'string' || typeof v.message !== 'string') return undefined;
  const pathLength = num(v.path) ?? (Array.isArray(v.path) ? v.path.length : undefined);
  return {
    check: v.check,
    message: v.message,
    ...(str(v.attempt) !== undefined ? { attempt: str(v.attempt)! } : {}),
    ...(str(v.real) !== undefined ? { real: str(v.real)! } : {}),
    ...(str(v.predicted) !== undefined ? { predicted: str(v.predicted)! } : {}),
    // The path holds Init and every step after it.
    ...(pathLength !== undefined ? { steps: Math.max(0, pathLength - 1) } : {}),
  };
}

function checksOf(v: unknown): string | undefined {
  if (!isObj(v)) return undefined;
  if (v.kind === 'conformance') return 'conformance';
  if (v.kind === 'invariant' && typeof v.invariant === 'string') return `${v.invariant} alone`;
  return undefined;
}

function boundsOf(v: unknown): ConformSummary['bounds'] {
  if (!isObj(v) || !Array.isArray(v.pods) || !v.pods.every((p) => typeof p === 'string') || num(v.maxGen) === undefined) return undefined;
  return { pods: v.pods as string[], maxGen: v.maxGen as number };
}

/** The conform stage's summary, or null when the stage was not selected. */
export function conformSummary(outcomes: readonly StageOutcome[]): ConformSummary | null {
  const o = outcomes.find((s) => s.stage === 'conform');
  if (!o) return null;
  const base: ConformSummary = { status: o.status, ...(o.reason !== undefined ? { reason: o.reason } : {}), summary: o.summary };
  const report = o.report;
  if (!report || (o.status !== 'passed' && o.status !== 'failed')) return base;
  const counts = report.counts ?? {};
  const d: Obj = isObj(report.details) ? report.details : {};
  // `fencecheck conform` leaves `failure` out of a passing run's details.
  const failure = failureOf(d.failure) ?? (o.status === 'passed' && d.failure === undefined ? null : undefined);
  const actions = actionRows(d.byAction, failure?.attempt !== undefined ? attemptRow(failure.attempt) : undefined);
  const pair = (a: string, b: string) => (num(counts[a]) !== undefined && num(counts[b]) !== undefined ? figure(counts[a]!, counts[b]!) : undefined);
  const states = pair('states', 'modelStates');
  const transitions = pair('transitions', 'modelTransitions');
  const refused = pair('refused', 'modelRefused');
  const checks = checksOf(d.checks);
  const bounds = boundsOf(d.bounds);
  const tracePath = report.traces?.[0];
  const replay = str(d.replay) ?? (tracePath !== undefined ? `fencecheck trace replay ${tracePath}` : undefined);
  const equal = d.equalToModel === true || d.equalToModel === false || d.equalToModel === null ? d.equalToModel : undefined;
  return {
    ...base,
    ...(checks !== undefined ? { checks } : {}),
    ...(bounds !== undefined ? { bounds } : {}),
    ...(states && transitions && refused ? { coverage: { states, transitions, refused } } : {}),
    ...(num(counts.realStates) !== undefined ? { realStates: counts.realStates } : {}),
    ...(num(counts.attempts) !== undefined ? { attempts: counts.attempts } : {}),
    ...(num(d.depth) !== undefined ? { depth: d.depth as number } : {}),
    ...(num(counts.tourMs) !== undefined ? { tourMs: counts.tourMs } : {}),
    ...(equal !== undefined ? { equalToModel: equal } : {}),
    ...(actions !== undefined ? { actions } : {}),
    ...(failure !== undefined ? { failure } : {}),
    ...(tracePath !== undefined ? { tracePath } : {}),
    ...(replay !== undefined ? { replay } : {}),
  };
}

/** Lines describing the first mismatch: what, where, real against model, the trace and its replay command. */
export function failureLines(s: ConformSummary): string[] {
  const f = s.failure;
  if (!f) return s.status === 'failed' ? [s.reason ?? s.summary] : [];
  return [
    `${f.check}: ${f.message}`,
    ...(f.attempt !== undefined ? [`attempt: ${f.attempt}`] : []),
    ...(f.real !== undefined ? [`real:    ${f.real}`] : []),
    ...(f.predicted !== undefined ? [`model:   ${f.predicted}`] : []),
    ...(f.steps !== undefined ? [`path: ${f.steps} steps from Init`] : []),
    ...(s.tracePath !== undefined ? [`trace: ${s.tracePath}`] : []),
    ...(s.replay !== undefined ? [`replay: ${s.replay}`] : []),
  ];
}
