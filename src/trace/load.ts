/**
 * Reading a trace file (fencecheck.trace/2, docs/trace-format.md) of any system, without knowing the
 * system: the shape, the ITF values, and the indexes are checked here, naming the first problem
 * (TraceFormatError: the CLI's exit 3). Older files are converted: a `fencecheck.trace/1` trace of
 * another spec already holds ITF states; one of a system holds the system's own state form, whose
 * plain JSON is read as ITF values (numbers as integers, objects as records) — src/trace/systems.ts
 * then reads it back through the system itself (the exact TLA+ values, the invariants each state
 * breaks). A TLC evidence record carries its trace in `trace`.
 */
import { readFileSync, statSync } from 'node:fs';
import { toItfValue, type ItfValue } from '../core/itf-value.js';
import { FOREIGN_SYSTEM, TRACE_SCHEMA, TRACE_SCHEMA_V1, TRACE_SOURCES, isTrace, type TraceLike, type Trace, type TraceImport } from '../core/trace-format.js';

/** A trace file that is missing, not JSON, or not a fencecheck trace (the CLI maps it to exit 3). */
export class TraceFormatError extends Error {
  override readonly name = 'TraceFormatError';
}

/** No real trace comes near this; a bigger file is refused rather than parsed. */
const MAX_TRACE_BYTES = 64 * 1024 * 1024;

const FIELDS = new Set(['schema', 'system', 'source', 'spec', 'vars', 'bounds', 'mutant', 'patch', 'violated', 'brokenAtEnd', 'seed', 'path', 'steps', 'loop', 'loopAction', 'imported', 'itf']);
const STEP_FIELDS = new Set(['action', 'params', 'state', 'broken', 'observed', 'note']);
const SYSTEM_NAME = /^[a-z][a-z0-9-]*$/;

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
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new TraceFormatError(`${path}: not JSON: ${(err as Error).message.split('\n')[0]}`);
  }
}

/** Reads and validates a trace file of any system (older formats converted). */
export function loadTraceFile(path: string): Trace {
  return validateTrace(readTraceJson(path), path);
}

/** A trace file, or why it cannot be read (the reports list those instead of failing). */
export function tryLoadAnyTrace(path: string): { trace: Trace } | { error: string } {
  try {
    return { trace: loadTraceFile(path) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/** The record of a patch file (src/seam/patch-file.ts): exactly {path, sha256}. */
function isPatchRecord(v: unknown): boolean {
  if (!isObject(v) || Object.keys(v).some((k) => k !== 'path' && k !== 'sha256')) return false;
  return typeof v.path === 'string' && v.path !== '' && typeof v.sha256 === 'string' && /^[0-9a-f]{64}$/.test(v.sha256);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A trace of either format (or an evidence record holding one), as fencecheck.trace/2. */
export function validateTrace(raw: unknown, where = 'trace'): Trace {
  if (!isObject(raw)) throw new TraceFormatError(`${where}: not a JSON object`);
  // A TLC evidence record (evidence/tlc/<system>/Mx.json, reports/tlc/...) carries its trace in `trace`.
  if (raw.schema !== TRACE_SCHEMA && raw.schema !== TRACE_SCHEMA_V1 && isObject(raw.trace)) return validateTrace(fromRecord(raw, raw.trace), `${where} (trace)`);
  if (raw.schema === TRACE_SCHEMA_V1) return validateTrace(fromV1(raw, where), where);
  if (raw.schema !== TRACE_SCHEMA) throw new TraceFormatError(`${where}: schema must be "${TRACE_SCHEMA}" (or "${TRACE_SCHEMA_V1}"), got ${JSON.stringify(raw.schema)}`);
  const problem = traceProblem(raw);
  if (problem) throw new TraceFormatError(`${where}: ${problem}`);
  return raw as unknown as Trace;
}

/** Alias kept for callers of the /1 API: every trace is any system's. */
export const validateAnyTrace = validateTrace;

function itfProblem(v: unknown, at: string): string | null {
  const r = toItfValue(v, at);
  return 'problem' in r ? `${r.problem} (an ITF value)` : null;
}

function paramsProblem(p: unknown, at: string): string | null {
  if (!isObject(p)) return `${at} must be an object`;
  for (const [k, v] of Object.entries(p)) {
    const bad = itfProblem(v, `${at}.${k}`);
    if (bad) return bad;
  }
  return null;
}

function stringList(v: unknown): boolean {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

/** The first rule of docs/trace-format.md a parsed /2 trace breaks, or null. */
function traceProblem(raw: Record<string, unknown>): string | null {
  const extra = Object.keys(raw).find((k) => !FIELDS.has(k));
  if (extra !== undefined) return `unknown field ${JSON.stringify(extra)}`;
  if (typeof raw.system !== 'string' || !SYSTEM_NAME.test(raw.system)) return `system must be a system's name (or "${FOREIGN_SYSTEM}"), got ${JSON.stringify(raw.system)}`;
  if (!(TRACE_SOURCES as readonly unknown[]).includes(raw.source)) return `source must be one of ${TRACE_SOURCES.join(', ')}`;
  if (raw.spec !== undefined && typeof raw.spec !== 'string') return 'spec must be a string';
  if (!stringList(raw.vars)) return 'vars must be an array of variable names';
  const vars = raw.vars as string[];
  if (new Set(vars).size !== vars.length) return 'vars must not repeat a variable';
  for (const k of ['mutant', 'violated', 'path'] as const) if (raw[k] !== undefined && typeof raw[k] !== 'string') return `${k} must be a string`;
  if (raw.seed !== undefined && !Number.isInteger(raw.seed)) return 'seed must be an integer';
  if (raw.patch !== undefined && !isPatchRecord(raw.patch)) return 'patch must be {path, sha256} (a non-empty path, 64 lower-case hex digits)';
  if (raw.brokenAtEnd !== undefined && !stringList(raw.brokenAtEnd)) return 'brokenAtEnd must be an array of invariant names';
  if (!Array.isArray(raw.steps) || raw.steps.length === 0) return 'steps must be a non-empty array';
  for (const [i, step] of (raw.steps as unknown[]).entries()) {
    const at = `steps[${i}]`;
    if (!isObject(step)) return `${at} is not an object`;
    const extraStep = Object.keys(step).find((k) => !STEP_FIELDS.has(k));
    if (extraStep !== undefined) return `${at}: unknown field ${JSON.stringify(extraStep)}`;
    if (typeof step.action !== 'string' || step.action === '') return `${at}.action must be a non-empty string`;
    const p = paramsProblem(step.params, `${at}.params`);
    if (p) return p;
    if (!isObject(step.state)) return `${at}.state must be an object`;
    for (const k of Object.keys(step.state)) if (!vars.includes(k)) return `${at}.state.${k} is not one of vars`;
    for (const v of vars) {
      if (!(v in step.state)) return `${at}.state lacks variable ${v}`;
      const bad = itfProblem(step.state[v], `${at}.state.${v}`);
      if (bad) return bad;
    }
    if (step.broken !== undefined && !stringList(step.broken)) return `${at}.broken must be an array of invariant names`;
    if (step.observed !== undefined && !isObject(step.observed)) return `${at}.observed must be an object`;
    if (step.note !== undefined && typeof step.note !== 'string') return `${at}.note must be a string`;
  }
  const first = (raw.steps as { action: string }[])[0]!;
  if (first.action !== 'Init') return `steps[0].action must be "Init" (a trace starts in an initial state), got ${JSON.stringify(first.action)}`;
  const count = (raw.steps as unknown[]).length;
  if (raw.loop !== undefined && (!Number.isInteger(raw.loop) || (raw.loop as number) < 0 || (raw.loop as number) >= count)) return `loop must be the index of a state of the trace (0..${count - 1})`;
  if (raw.loopAction !== undefined) {
    if (raw.loop === undefined) return 'loopAction needs loop';
    const a = raw.loopAction;
    if (!isObject(a) || typeof a.action !== 'string' || a.action === '' || Object.keys(a).some((k) => k !== 'action' && k !== 'params')) return 'loopAction must be {action, params}';
    const p = paramsProblem(a.params, 'loopAction.params');
    if (p) return p;
  }
  if (raw.imported !== undefined) {
    const i = raw.imported;
    if (!isObject(i) || !['tlc-json', 'itf', 'trace/1'].includes(i.format as string) || !stringList(i.notes) || (i.file !== undefined && typeof i.file !== 'string'))
      return 'imported must be {format: "tlc-json"|"itf"|"trace/1", file?, notes: [string]}';
  }
  if (raw.itf !== undefined) {
    const x = raw.itf;
    if (!isObject(x) || Object.keys(x).some((k) => k !== 'params' && k !== 'meta' && k !== 'types')) return 'itf must be {params?, meta?, types?}';
    if (x.params !== undefined) {
      const p = paramsProblem(x.params, 'itf.params');
      if (p) return p;
    }
    if (x.meta !== undefined && !isObject(x.meta)) return 'itf.meta must be an object';
    if (x.types !== undefined && (!isObject(x.types) || Object.values(x.types).some((t) => typeof t !== 'string' || !/^[A-Z][A-Z0-9_]*$/.test(t))))
      return 'itf.types must map model values to type names (upper case)';
  }
  return null;
}

/**
 * An evidence record's trace. A /1 record kept its system's TLC trace as `system: "tla"` with no
 * mutant: the record says whose it is (`system`) and under which mutant (`mutant.id`).
 */
function fromRecord(record: Record<string, unknown>, inner: Record<string, unknown>): Record<string, unknown> {
  if (inner.schema !== TRACE_SCHEMA_V1 || inner.system !== FOREIGN_SYSTEM || typeof record.system !== 'string' || !SYSTEM_NAME.test(record.system)) return inner;
  const id = isObject(record.mutant) && typeof record.mutant.id === 'string' ? record.mutant.id : undefined;
  return { ...inner, system: record.system, ...(id !== undefined && inner.mutant === undefined && { mutant: id }) };
}

/** A JSON value of a /1 system state (plain JSON) as ITF, naming the place when it is no TLA+ value. */
function plainItf(v: unknown, at: string, where: string): ItfValue {
  const r = toItfValue(v, at);
  if ('problem' in r) throw new TraceFormatError(`${where}: ${r.problem}`);
  return r.value;
}

/**
 * A fencecheck.trace/1 trace as /2. `system: "tla"` ones hold ITF states and `vars` already. A
 * system's held its states in the system's own form: their JSON is read as ITF (integers `#bigint`,
 * objects records), the variables are the first state's keys; the system's reading
 * (src/trace/systems.ts) then makes the values exact.
 */
function fromV1(raw: Record<string, unknown>, where: string): Record<string, unknown> {
  const steps = Array.isArray(raw.steps) ? (raw.steps as unknown[]) : [];
  if (steps.length === 0) throw new TraceFormatError(`${where}: steps must be a non-empty array`);
  const notes = ['converted from fencecheck.trace/1'];
  const imported: TraceImport =
    isObject(raw.imported) && Array.isArray(raw.imported.notes)
      ? { ...(raw.imported as unknown as TraceImport), notes: [...(raw.imported.notes as string[]), ...notes] }
      : { format: 'trace/1', notes };
  const { schema: _s, ...rest } = raw;
  if (raw.system === FOREIGN_SYSTEM) return { ...rest, schema: TRACE_SCHEMA, imported };
  if (typeof raw.system !== 'string') throw new TraceFormatError(`${where}: system must be a string`);
  const first = steps[0];
  if (!isObject(first) || !isObject(first.state)) throw new TraceFormatError(`${where}: steps[0].state must be an object`);
  // A system's own state form has no `vars` (its keys are the variables); a system's trace kept as ITF has them. Reading ITF as ITF changes nothing.
  const vars = stringList(raw.vars) ? (raw.vars as string[]) : Object.keys(first.state);
  const converted = steps.map((step, i) => {
    if (!isObject(step)) throw new TraceFormatError(`${where}: steps[${i}] is not an object`);
    if (!isObject(step.state)) throw new TraceFormatError(`${where}: steps[${i}].state must be an object`);
    const missing = vars.find((v) => !(v in (step.state as Record<string, unknown>)));
    if (missing !== undefined) throw new TraceFormatError(`${where}: steps[${i}].state lacks variable ${missing}`);
    const params = isObject(step.params) ? Object.fromEntries(Object.entries(step.params).map(([k, v]) => [k, plainItf(v, `steps[${i}].params.${k}`, where)])) : step.params;
    const state = Object.fromEntries(Object.entries(step.state).map(([k, v]) => [k, plainItf(v, `steps[${i}].state.${k}`, where)]));
    return { ...step, params, state };
  });
  const loopAction =
    isObject(raw.loopAction) && isObject(raw.loopAction.params)
      ? { ...raw.loopAction, params: Object.fromEntries(Object.entries(raw.loopAction.params).map(([k, v]) => [k, plainItf(v, `loopAction.params.${k}`, where)])) }
      : raw.loopAction;
  return { ...rest, schema: TRACE_SCHEMA, vars, steps: converted, ...(loopAction !== undefined && { loopAction }), imported };
}

/**
 * Any trace in memory as /2: a Trace as it is; a ModelTrace (states in the system's own form, e.g.
 * the conformance tour's before it is saved) read structurally like a /1 file, for the renderers.
 */
export function asTrace(t: TraceLike): Trace {
  if (isTrace(t)) return t;
  return validateTrace(JSON.parse(JSON.stringify({ ...t, schema: TRACE_SCHEMA_V1 })), `${t.source} trace`);
}
