import { readFileSync, statSync } from 'node:fs';
import { EVENT_TYPES, POD_EVENT_TYPES } from '../../models/fencing/events.js';
import { MODES, NONE, PHASES, type Lease } from '../systems/fencing/state.js';
import { TRACE_SCHEMA, type AnyTrace, type FencingTrace, type TlaTrace } from '../core/trace-format.js';
import { toItfValue } from './itf-value.js';

/** A trace file that is missing, not JSON, or not fencecheck.trace/1 (the CLI maps it to exit 3). */
export class TraceFormatError extends Error {
  override readonly name = 'TraceFormatError';
}

const SOURCES = ['tlc', 'model', 'props', 'limiter', 'conform', 'itf'];

/** No real trace comes near this; a bigger file is refused rather than parsed. */
const MAX_TRACE_BYTES = 64 * 1024 * 1024;

/** Reads and validates one fencing trace file; throws TraceFormatError naming the first problem. */
export function loadTrace(path: string): FencingTrace {
  const t = loadAnyTrace(path);
  if (t.system !== 'fencing') throw new TraceFormatError(`${path}: a trace of another spec (system "tla"${t.spec ? `, ${t.spec}` : ''}): only the fencing system's traces replay`);
  return t;
}

/** The JSON of a trace file (any system); throws TraceFormatError. */
export function readTraceJson(path: string): unknown {
  let text: string;
  try {
    // A FIFO, a device or a directory is refused before it is opened: reading one would hang or fail obscurely.
    const st = statSync(path);
    if (!st.isFile()) throw new TraceFormatError(`cannot read trace ${path}: not a regular file`);
    if (st.size > MAX_TRACE_BYTES) throw new TraceFormatError(`cannot read trace ${path}: ${st.size} bytes is over the ${MAX_TRACE_BYTES}-byte limit`);
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if (err instanceof TraceFormatError) throw err;
    throw new TraceFormatError(`cannot read trace ${path}: ${(err as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new TraceFormatError(`${path}: not JSON: ${(err as Error).message}`);
  }
  return raw;
}

/** Reads and validates a trace of any system (`trace show`). */
export function loadAnyTrace(path: string): AnyTrace {
  return validateAnyTrace(readTraceJson(path), path);
}

/** A fencing or a `system: "tla"` trace, validated. */
export function validateAnyTrace(raw: unknown, where = 'trace'): AnyTrace {
  if (isObject(raw) && raw.schema === TRACE_SCHEMA && raw.system === 'tla') return validateTlaTrace(raw, where);
  return validateTrace(raw, where);
}

/** The common optional fields: violated, loop (an index of steps) and its closing action. */
function commonProblem(raw: Record<string, unknown>, stepCount: number): string | null {
  if (raw.violated !== undefined && typeof raw.violated !== 'string') return 'violated must be a string';
  if (raw.loop !== undefined && (!Number.isInteger(raw.loop) || (raw.loop as number) < 0 || (raw.loop as number) >= stepCount))
    return `loop must be the index of a state of the trace (0..${stepCount - 1})`;
  if (raw.loopAction !== undefined) {
    if (raw.loop === undefined) return 'loopAction needs loop';
    const a = raw.loopAction;
    if (!isObject(a) || typeof a.action !== 'string' || a.action === '' || !isObject(a.params)) return 'loopAction must be {action, params}';
  }
  if (raw.imported !== undefined) {
    const i = raw.imported;
    if (!isObject(i) || (i.format !== 'tlc-json' && i.format !== 'itf') || !Array.isArray(i.notes) || !i.notes.every((n) => typeof n === 'string'))
      return 'imported must be {format: "tlc-json"|"itf", notes: [string]}';
  }
  return null;
}

function validateTlaTrace(raw: Record<string, unknown>, where: string): TlaTrace {
  const fail = (msg: string): never => {
    throw new TraceFormatError(`${where}: ${msg}`);
  };
  if (!SOURCES.includes(raw.source as string)) fail(`source must be one of ${SOURCES.join(', ')}`);
  if (raw.spec !== undefined && typeof raw.spec !== 'string') fail('spec must be a string');
  if (!Array.isArray(raw.vars) || !raw.vars.every((v) => typeof v === 'string')) fail('vars must be an array of variable names');
  const vars = raw.vars as string[];
  if (!Array.isArray(raw.steps) || raw.steps.length === 0) fail('steps must be a non-empty array');
  (raw.steps as unknown[]).forEach((step, i) => {
    const at = `steps[${i}]`;
    if (!isObject(step)) return fail(`${at} is not an object`);
    if (typeof step.action !== 'string' || step.action === '') fail(`${at}.action must be a non-empty string`);
    if (!isObject(step.params)) fail(`${at}.params must be an object`);
    if (!isObject(step.state)) fail(`${at}.state must be an object`);
    for (const [k, v] of Object.entries(step.state as Record<string, unknown>)) {
      if (!vars.includes(k)) fail(`${at}.state.${k} is not one of vars`);
      const r = toItfValue(v, `${at}.state.${k}`);
      if ('problem' in r) fail(`${r.problem} (an ITF value)`);
    }
  });
  const problem = commonProblem(raw, (raw.steps as unknown[]).length);
  if (problem) fail(problem);
  return raw as unknown as TlaTrace;
}

/** Checks the shape of a parsed trace (docs/trace-format.md) and returns it typed. */
export function validateTrace(raw: unknown, where = 'trace'): FencingTrace {
  const fail = (msg: string): never => {
    throw new TraceFormatError(`${where}: ${msg}`);
  };
  if (!isObject(raw)) return fail('not a JSON object');
  // A TLC evidence record (evidence/tlc/fencing/Mx.json, reports/tlc/Mx.json) carries its trace in `trace`.
  if (raw.schema !== TRACE_SCHEMA && isObject(raw.trace) && raw.trace.schema === TRACE_SCHEMA) return validateTrace(raw.trace, `${where} (trace)`);
  if (raw.schema !== TRACE_SCHEMA) fail(`schema must be "${TRACE_SCHEMA}", got ${JSON.stringify(raw.schema)}`);
  if (raw.system !== 'fencing') fail(`system must be "fencing", got ${JSON.stringify(raw.system)}`);
  if (!SOURCES.includes(raw.source as string)) fail(`source must be one of ${SOURCES.join(', ')}`);
  const bounds = raw.bounds;
  if (!isObject(bounds) || !Array.isArray(bounds.pods) || !bounds.pods.every((p) => typeof p === 'string' && /^p\d+$/.test(p)))
    fail('bounds.pods must be an array of pod names p1..pN');
  const pods = (bounds as { pods: string[] }).pods;
  if (pods.length === 0) fail('bounds.pods must name at least one pod');
  if (new Set(pods).size !== pods.length) fail('bounds.pods must not repeat a pod');
  if (!isObject(bounds) || !Number.isInteger(bounds.maxGen) || (bounds.maxGen as number) < 0) fail('bounds.maxGen must be a non-negative integer');
  if (raw.mutant !== undefined && typeof raw.mutant !== 'string') fail('mutant must be a string');
  if (!Array.isArray(raw.steps) || raw.steps.length === 0) fail('steps must be a non-empty array');
  const common = commonProblem(raw, (raw.steps as unknown[]).length);
  if (common) fail(common);
  (raw.steps as unknown[]).forEach((step, i) => {
    const at = `steps[${i}]`;
    if (!isObject(step)) return fail(`${at} is not an object`);
    if (typeof step.action !== 'string' || step.action === '') fail(`${at}.action must be a non-empty string`);
    if (!isObject(step.params)) fail(`${at}.params must be an object`);
    const problem = stateProblem(step.state);
    if (problem) fail(`${at}.state: ${problem}`);
  });
  const first = (raw.steps as { action: string }[])[0]!;
  if (first.action !== 'Init') fail(`steps[0].action must be "Init" (a trace starts in the initial state), got ${JSON.stringify(first.action)}`);
  return raw as unknown as FencingTrace;
}

function stateProblem(s: unknown): string | null {
  if (!isObject(s)) return 'not an object';
  if (!isObject(s.version) || !Object.entries(s.version).every(([p, v]) => /^p\d+$/.test(p) && PHASES.includes(v as never)))
    return 'version must map pods to O|A|B|C';
  if (!PHASES.includes(s.target as never)) return 'target must be O|A|B|C';
  for (const k of ['oldLease', 'newLease'] as const) if (!isLease(s[k])) return `${k} must be {owner, gen}`;
  for (const k of ['oldGen', 'newGen', 'lastIssued'] as const) if (!Number.isInteger(s[k])) return `${k} must be an integer`;
  for (const k of ['backfilled', 'monoOk'] as const) if (typeof s[k] !== 'boolean') return `${k} must be a boolean`;
  if (!MODES.includes(s.mode as never)) return `mode must be one of ${MODES.join('|')}`;
  return null;
}

function isLease(v: unknown): v is Lease {
  return isObject(v) && (v.owner === NONE || (typeof v.owner === 'string' && /^p\d+$/.test(v.owner))) && Number.isInteger(v.gen);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The attempts a conformance-tour trace may name besides the model's events (src/trace/replay.ts). */
const TOUR_ATTEMPTS = ['Acquire', 'Upgrade', 'Downgrade', 'Expire', 'Renew', 'Release'];

/**
 * What `trace replay` needs beyond the shape: every step after Init is an action the step driver
 * knows, and every pod a step names is one of the trace's bounds. Checked before any server starts;
 * throws TraceFormatError naming the first bad step.
 */
export function validateReplayable(trace: FencingTrace, where = 'trace'): void {
  const known = trace.source === 'conform' ? [...EVENT_TYPES, ...TOUR_ATTEMPTS] : EVENT_TYPES;
  const podActions: readonly string[] = [...POD_EVENT_TYPES, ...(trace.source === 'conform' ? ['Acquire', 'Upgrade', 'Downgrade', 'Renew', 'Release'] : [])];
  trace.steps.forEach((step, i) => {
    if (i === 0) return;
    const at = `${where}: steps[${i}]`;
    if (!(known as readonly string[]).includes(step.action)) throw new TraceFormatError(`${at}: unknown action ${JSON.stringify(step.action)} (one of ${known.join(', ')})`);
    const p = step.params.p;
    if (p !== undefined && (typeof p !== 'string' || !trace.bounds.pods.includes(p as never)))
      throw new TraceFormatError(`${at}: pod ${JSON.stringify(p)} is not one of the trace's bounds.pods (${trace.bounds.pods.join(', ')})`);
    if (podActions.includes(step.action) && p === undefined) throw new TraceFormatError(`${at}: ${step.action} needs a pod (params.p)`);
    for (const [k, v] of Object.entries(step.params)) if (typeof v === 'string' && /^p\d+$/.test(v) && !trace.bounds.pods.includes(v as never))
      throw new TraceFormatError(`${at}: params.${k} ${JSON.stringify(v)} is not one of the trace's bounds.pods (${trace.bounds.pods.join(', ')})`);
  });
}

/** Type guard for callers that must not throw (the report embeds whatever traces it can read). */
/** A trace of any system, or why it cannot be read (the reports list those instead of failing). */
export function tryLoadAnyTrace(path: string): { trace: AnyTrace } | { error: string } {
  try {
    return { trace: loadAnyTrace(path) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

export function tryLoadTrace(path: string): { trace: FencingTrace } | { error: string } {
  try {
    return { trace: loadTrace(path) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}
