/**
 * An observed trace (`fencecheck.observed/1`): what a run of the real code did, step by step, as the
 * spec's variables — each value read from the real system (its keyspace, its replies, its replicas'
 * status) or left unobserved — with the action the implementation claims each step was. What
 * `fencecheck tracecheck` hands TLC (docs/tracecheck.md). A system's mapping from its observations
 * to the spec's variables lives in that system's folder; nothing here names a system.
 *
 * A file holds one trace, or `{ schema, traces: [...] }` with many. Values are TLA+ text as TLC
 * prints values (`[owner |-> p1, gen |-> 2]`, `(r1 :> TRUE @@ r2 :> FALSE)`, model values by name).
 */
import { parseTlaValue, type TlaValue } from '../../core/tla-value.js';

export const OBSERVED_SCHEMA = 'fencecheck.observed/1' as const;

/** A claimed action's argument: a TLA+ value, or unobserved (null: any value of the action's domain; `in`/`such`: a narrower one). */
export type ClaimArg =
  | string
  | null
  | {
      /** The set the argument is drawn from (TLA+, over the state before the step); default: the system's domain for this parameter. */
      readonly in?: string;
      /** A predicate the argument satisfies, naming it `fc_arg` (`fc_arg.by = r1`). */
      readonly such?: string;
    };

/** An action of the spec's Next the implementation says it performed, with its arguments in the spec's order. */
export interface ClaimedAction {
  readonly name: string;
  readonly args?: readonly ClaimArg[];
}

export interface ObservedStep {
  /**
   * The claimed action, or alternatives (the implementation cannot tell which: an unknown outcome).
   * Absent: any action of Next. Never on the first step (the initial state).
   */
  readonly action?: ClaimedAction | readonly ClaimedAction[];
  /** The step may also be a stutter: nothing the spec tracks changed (a refused attempt, a lost call). */
  readonly stutter?: boolean;
  /** Spec variables as observed after the step (TLA+ values); absent or null: not observed. */
  readonly vars?: Readonly<Record<string, string | null>>;
  /** Observed values of state expressions over the spec's variables (`Len(history)`, `held[p3]`). */
  readonly views?: Readonly<Record<string, string>>;
  /** For humans: what the run did here. */
  readonly note?: string;
}

/** Where a run's own model says the real system first left the spec (null: nowhere), and which model said so. */
export interface PredictedRejection {
  readonly step: number | null;
  readonly by: string;
}

export interface ObservedTrace {
  readonly schema?: typeof OBSERVED_SCHEMA;
  /** The system (its spec and base config) the trace is judged against. */
  readonly system: string;
  /** What produced it: `props`, `walk`, `drill`, `tour`, or a name of your own. */
  readonly source: string;
  /** A name for reports (`props standalone seed 7 run 3`). */
  readonly id?: string;
  /** The impl patch the run ran under, recorded by the layer that applied it (the run itself does not know). */
  readonly mutant?: string;
  /** Constants that differ from the base config (TLA+ text), where the run needs more than it allows. */
  readonly constants?: Readonly<Record<string, string>>;
  readonly predicted?: PredictedRejection;
  /** How to rerun what produced the trace. */
  readonly replay?: string;
  readonly steps: readonly ObservedStep[];
}

export interface ObservedFile {
  readonly schema: typeof OBSERVED_SCHEMA;
  readonly traces: readonly ObservedTrace[];
}

/** A trace file that is not an observed trace: bad input (exit 3), naming the file, trace and step. */
export class ObservedTraceError extends Error {
  override readonly name = 'ObservedTraceError';
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The claims of a step as a list (absent: undefined, any action). */
export function claimsOf(step: ObservedStep): readonly ClaimedAction[] | undefined {
  if (step.action === undefined) return undefined;
  return Array.isArray(step.action) ? (step.action as readonly ClaimedAction[]) : [step.action as ClaimedAction];
}

/** A step's claim in one line: `AcquireB(p2)`, `Release(p3) | Expire(p3) | stutter`, `any`. */
export function claimLabel(step: ObservedStep): string {
  const claims = claimsOf(step);
  const one = (c: ClaimedAction) => (c.args && c.args.length > 0 ? `${c.name}(${c.args.map(argLabel).join(', ')})` : c.name);
  const parts = claims === undefined ? ['any action'] : claims.map(one);
  if (step.stutter) parts.push('stutter');
  return parts.length === 0 ? 'nothing' : parts.join(' | ');
}

function argLabel(a: ClaimArg): string {
  if (a === null) return '_';
  if (typeof a === 'string') return a;
  return `_${a.in ? ` \\in ${a.in}` : ''}${a.such ? ` : ${a.such}` : ''}`;
}

/** Every model value a TLA+ value names. */
export function modelValuesOf(v: TlaValue, out = new Set<string>()): Set<string> {
  switch (v.kind) {
    case 'mv':
      out.add(v.name);
      break;
    case 'record':
      for (const x of Object.values(v.fields)) modelValuesOf(x, out);
      break;
    case 'fn':
      for (const [k, x] of v.entries) {
        modelValuesOf(k, out);
        modelValuesOf(x, out);
      }
      break;
    case 'set':
    case 'seq':
      for (const x of v.items) modelValuesOf(x, out);
      break;
    default:
      break;
  }
  return out;
}

/** One TLA+ value of a trace, checked to be one (a value, not an expression). */
export function readValue(text: unknown, where: string): TlaValue {
  if (typeof text !== 'string') throw new ObservedTraceError(`${where}: a value is TLA+ text, got ${JSON.stringify(text)?.slice(0, 40)}`);
  try {
    const v = parseTlaValue(text);
    if (v.kind === 'unreadable') throw new Error(v.error);
    return v;
  } catch (err) {
    throw new ObservedTraceError(`${where}: not a TLA+ value (${(err as Error).message.split('\n')[0]}): ${text.slice(0, 60)}`);
  }
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

function readClaim(x: unknown, where: string): ClaimedAction {
  if (!isObject(x) || typeof x.name !== 'string' || !IDENT.test(x.name)) throw new ObservedTraceError(`${where}: a claimed action is { name, args? } with an identifier name`);
  const args = x.args;
  if (args !== undefined && !Array.isArray(args)) throw new ObservedTraceError(`${where}: args is a list`);
  for (const [i, a] of (args ?? []).entries()) {
    const at = `${where} argument ${i + 1}`;
    if (a === null) continue;
    if (typeof a === 'string') readValue(a, at);
    else if (!isObject(a) || Object.keys(a).some((k) => k !== 'in' && k !== 'such') || (a.in !== undefined && typeof a.in !== 'string') || (a.such !== undefined && typeof a.such !== 'string')) {
      throw new ObservedTraceError(`${at}: a TLA+ value, null, or { in?, such? }`);
    }
  }
  return { name: x.name, ...(args !== undefined && { args: args as ClaimArg[] }) };
}

function readStep(x: unknown, where: string, first: boolean): ObservedStep {
  if (!isObject(x)) throw new ObservedTraceError(`${where}: a step is an object`);
  const known = ['action', 'stutter', 'vars', 'views', 'note'];
  const extra = Object.keys(x).find((k) => !known.includes(k));
  if (extra !== undefined) throw new ObservedTraceError(`${where}: unknown field ${extra}`);
  if (first && (x.action !== undefined || x.stutter !== undefined)) throw new ObservedTraceError(`${where}: the first step is the initial state: it claims no action`);
  if (x.action !== undefined) {
    if (Array.isArray(x.action)) x.action.forEach((c, i) => readClaim(c, `${where} action ${i + 1}`));
    else readClaim(x.action, `${where} action`);
  }
  if (x.stutter !== undefined && typeof x.stutter !== 'boolean') throw new ObservedTraceError(`${where}: stutter is true or false`);
  for (const field of ['vars', 'views'] as const) {
    const m = x[field];
    if (m === undefined) continue;
    if (!isObject(m)) throw new ObservedTraceError(`${where}: ${field} maps names to TLA+ values`);
    for (const [k, v] of Object.entries(m)) {
      if (field === 'vars' && !IDENT.test(k)) throw new ObservedTraceError(`${where}: ${k} is not a variable name`);
      if (v === null && field === 'vars') continue;
      readValue(v, `${where} ${field === 'vars' ? 'variable' : 'view'} ${k}`);
    }
  }
  if (x.note !== undefined && typeof x.note !== 'string') throw new ObservedTraceError(`${where}: note is text`);
  return x as ObservedStep;
}

function readTrace(x: unknown, where: string): ObservedTrace {
  if (!isObject(x)) throw new ObservedTraceError(`${where}: a trace is an object`);
  if (x.schema !== undefined && x.schema !== OBSERVED_SCHEMA) throw new ObservedTraceError(`${where}: schema ${JSON.stringify(x.schema)}, expected ${OBSERVED_SCHEMA}`);
  if (typeof x.system !== 'string' || x.system === '') throw new ObservedTraceError(`${where}: no system`);
  if (typeof x.source !== 'string') throw new ObservedTraceError(`${where}: no source`);
  for (const f of ['id', 'mutant', 'replay'] as const) if (x[f] !== undefined && typeof x[f] !== 'string') throw new ObservedTraceError(`${where}: ${f} is text`);
  const c = x.constants;
  if (c !== undefined && (!isObject(c) || Object.entries(c).some(([k, v]) => !IDENT.test(k) || typeof v !== 'string'))) throw new ObservedTraceError(`${where}: constants maps names to TLA+ text`);
  const p = x.predicted;
  if (p !== undefined && (!isObject(p) || typeof p.by !== 'string' || !(p.step === null || (Number.isInteger(p.step) && (p.step as number) >= 0)))) {
    throw new ObservedTraceError(`${where}: predicted is { step: a step index or null, by }`);
  }
  const steps = x.steps;
  if (!Array.isArray(steps) || steps.length === 0) throw new ObservedTraceError(`${where}: steps is a non-empty list (the first is the initial state)`);
  steps.forEach((s, i) => readStep(s, `${where} step ${i}`, i === 0));
  if (p !== undefined && typeof p.step === 'number' && p.step >= steps.length) throw new ObservedTraceError(`${where}: predicted step ${p.step} is past the last step (${steps.length - 1})`);
  return x as unknown as ObservedTrace;
}

/** The traces of a file's JSON (one trace or a bundle); throws ObservedTraceError naming what does not fit. */
export function readObservedTraces(json: unknown, where: string): ObservedTrace[] {
  if (isObject(json) && Array.isArray(json.traces)) {
    if (json.schema !== OBSERVED_SCHEMA) throw new ObservedTraceError(`${where}: schema ${JSON.stringify(json.schema)}, expected ${OBSERVED_SCHEMA}`);
    return json.traces.map((t, i) => readTrace(t, `${where} trace ${i + 1}`));
  }
  return [readTrace(json, where)];
}

/** A file's text as traces: JSON first (bad JSON is bad input too). */
export function parseObservedText(text: string, where: string): ObservedTrace[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ObservedTraceError(`${where}: not JSON (${(err as Error).message})`);
  }
  return readObservedTraces(json, where);
}
