/**
 * Traces from other tools as `fencecheck.trace/1`: TLC's `-dumpTrace json FILE` and ITF files
 * (Apalache, Quint, `fencecheck trace export --itf`). A trace whose variables are exactly the
 * fencing spec's becomes a `system: "fencing"` trace (show and replay); any other a `system: "tla"`
 * trace (show). Throws TraceFormatError naming the first problem.
 */
import { brokenInvariants } from '../systems/fencing/invariants.js';
import { comparePods, DEFAULT_BOUNDS, type FencingBounds, type FencingState } from '../systems/fencing/state.js';
import { POD_ACTIONS, podOfStep } from '../systems/fencing/tlc/edges.js';
import { FENCING_VARIABLES } from '../systems/fencing/tlc/state.js';
import { TRACE_SCHEMA, type AnyTrace, type FencingTrace, type LoopAction, type TlaTrace, type TraceImport } from '../core/trace-format.js';
import { inferAction } from './infer-action.js';
import { toItfValue, type ItfValue } from './itf-value.js';
import { TraceFormatError, validateAnyTrace } from './load.js';

export type ForeignFormat = 'tlc-json' | 'itf';

export interface ImportOptions {
  readonly file?: string;
  /** The mutant the trace was made under (`trace replay` applies its implementation patch). */
  readonly mutant?: string;
  /** MaxGen of the run (not in the trace itself); default the base config's. */
  readonly maxGen?: number;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Which foreign format a parsed JSON file is, if any. */
export function foreignFormat(raw: unknown): ForeignFormat | undefined {
  if (!isObject(raw)) return undefined;
  if (isObject(raw.counterexample) && Array.isArray(raw.counterexample.state) && Array.isArray(raw.vars)) return 'tlc-json';
  if (Array.isArray(raw.states) && Array.isArray(raw.vars) && raw.schema === undefined) return 'itf';
  return undefined;
}

/** A trace before it is typed: states as ITF values, actions when the file names them. */
interface Neutral {
  readonly vars: string[];
  readonly states: Record<string, ItfValue>[];
  /** Per state (index 0 is Init): the action that produced it, when known. */
  readonly actions: ({ action: string; params: Record<string, ItfValue> } | undefined)[];
  readonly loop?: number;
  readonly loopAction?: { action: string; params: Record<string, ItfValue> };
  readonly meta: Record<string, unknown>;
  readonly notes: string[];
}

export function importTrace(raw: unknown, opts: ImportOptions = {}): AnyTrace {
  const where = opts.file ?? 'trace';
  const format = foreignFormat(raw);
  if (!format) throw new TraceFormatError(`${where}: neither TLC's -dumpTrace json ({"counterexample", "vars"}) nor ITF ({"vars", "states"})`);
  const n = format === 'tlc-json' ? fromTlcJson(raw as Record<string, unknown>, where) : fromItf(raw as Record<string, unknown>, where);
  const imported: TraceImport = { format, ...(opts.file !== undefined && { file: opts.file }), notes: n.notes };
  const isFencing = n.vars.length === FENCING_VARIABLES.length && FENCING_VARIABLES.every((v) => n.vars.includes(v));
  const trace = isFencing ? toFencing(n, format, opts, imported, where) : toTla(n, format, imported);
  return validateAnyTrace(JSON.parse(JSON.stringify(trace)), where);
}

function itf(v: unknown, at: string, where: string): ItfValue {
  const r = toItfValue(v, at);
  if ('problem' in r) throw new TraceFormatError(`${where}: ${r.problem}`);
  return r.value;
}

/**
 * TLC's -dumpTrace json: `{"vars": [...], "counterexample": {"state": [[i, {var: value}]…],
 * "action": [[[i, s], {"name", "context"?}, [j, s']]…]}}`. An action whose target is not the next
 * state closes a lasso (back to state j; `UnnamedAction` from a state to itself is stuttering).
 */
function fromTlcJson(raw: Record<string, unknown>, where: string): Neutral {
  const cx = raw.counterexample as Record<string, unknown>;
  const vars = (raw.vars as unknown[]).map(String);
  const states = (cx.state as unknown[]).map((entry, k) => {
    if (!Array.isArray(entry) || entry.length !== 2 || !Number.isInteger(entry[0]) || !isObject(entry[1])) throw new TraceFormatError(`${where}: counterexample.state[${k}] is not [index, {var: value}]`);
    return Object.fromEntries(Object.entries(entry[1]).map(([v, x]) => [v, itf(x, `state ${k + 1}: ${v}`, where)]));
  });
  if (states.length === 0) throw new TraceFormatError(`${where}: the counterexample has no states`);
  const actions: Neutral['actions'] = states.map(() => undefined);
  let loop: number | undefined;
  let loopAction: Neutral['loopAction'];
  const list = Array.isArray(cx.action) ? cx.action : [];
  for (const [k, a] of list.entries()) {
    if (!Array.isArray(a) || a.length !== 3 || !Array.isArray(a[0]) || !Array.isArray(a[2]) || !isObject(a[1])) throw new TraceFormatError(`${where}: counterexample.action[${k}] is not [[i, s], {name}, [j, s']]`);
    const from = Number(a[0][0]);
    const to = Number(a[2][0]);
    const info = a[1];
    const params = isObject(info.context) ? Object.fromEntries(Object.entries(info.context).map(([p, x]) => [p, itf(x, `action ${k} ${p}`, where)])) : {};
    const name = typeof info.name === 'string' ? info.name : 'Next';
    if (to === from + 1) actions[to - 1] = { action: name, params };
    else {
      if (k !== list.length - 1) throw new TraceFormatError(`${where}: counterexample.action[${k}] goes from state ${from} to ${to}, but only the last action may close a lasso`);
      if (to < 1 || to > states.length) throw new TraceFormatError(`${where}: the lasso goes back to state ${to}, the trace has ${states.length}`);
      loop = to - 1;
      loopAction = to === from && name === 'UnnamedAction' ? { action: 'Stuttering', params: {} } : { action: name, params };
    }
  }
  return { vars, states, actions, ...(loop !== undefined && { loop }), ...(loopAction && { loopAction }), meta: {}, notes: ['converted from TLC -dumpTrace json'] };
}

/** Where ITF producers put the action taken: `#meta.action`, or a variable `action` / `mbt::actionTaken` (Apalache, Quint). */
const ACTION_VARS = ['mbt::actionTaken', 'action'];

function fromItf(raw: Record<string, unknown>, where: string): Neutral {
  const meta = isObject(raw['#meta']) ? raw['#meta'] : {};
  const allVars = (raw.vars as unknown[]).map(String);
  const actionVar = ACTION_VARS.find((v) => allVars.includes(v));
  const vars = allVars.filter((v) => v !== actionVar && !v.startsWith('mbt::'));
  const notes: string[] = [`converted from ITF${typeof meta.source === 'string' ? ` (source ${meta.source})` : ''}`];
  const states: Record<string, ItfValue>[] = [];
  const actions: Neutral['actions'] = [];
  for (const [k, s] of (raw.states as unknown[]).entries()) {
    if (!isObject(s)) throw new TraceFormatError(`${where}: states[${k}] is not an object`);
    const m = isObject(s['#meta']) ? s['#meta'] : {};
    if (m.index !== undefined && m.index !== k) throw new TraceFormatError(`${where}: states[${k}] has #meta.index ${JSON.stringify(m.index)}`);
    const state: Record<string, ItfValue> = {};
    for (const v of vars) {
      if (!(v in s)) throw new TraceFormatError(`${where}: states[${k}] lacks variable ${v}`);
      state[v] = itf(s[v], `states[${k}].${v}`, where);
    }
    states.push(state);
    const name = typeof m.action === 'string' ? m.action : actionVar && typeof s[actionVar] === 'string' ? (s[actionVar] as string) : undefined;
    const params = isObject(m.params) ? Object.fromEntries(Object.entries(m.params).map(([p, x]) => [p, itf(x, `states[${k}].#meta.params.${p}`, where)])) : quintPicks(s['mbt::nondetPicks'], where);
    actions.push(name !== undefined && name !== '' && name !== 'init' ? { action: name, params } : undefined);
  }
  if (states.length === 0) throw new TraceFormatError(`${where}: the ITF trace has no states`);
  let loop: number | undefined;
  if (raw.loop !== undefined && raw.loop !== null) {
    if (!Number.isInteger(raw.loop) || (raw.loop as number) < 0 || (raw.loop as number) >= states.length) throw new TraceFormatError(`${where}: loop must index a state (0..${states.length - 1})`);
    loop = raw.loop as number;
  }
  const la = isObject(meta.loopAction) && typeof meta.loopAction.action === 'string' ? meta.loopAction : undefined;
  const loopAction = la ? { action: la.action as string, params: isObject(la.params) ? Object.fromEntries(Object.entries(la.params).map(([p, x]) => [p, itf(x, `loopAction.${p}`, where)])) : {} } : undefined;
  return { vars, states, actions, ...(loop !== undefined && { loop }), ...(loopAction && { loopAction }), meta, notes };
}

/** Quint's `mbt::nondetPicks`: `{p: {tag: "Some", value: v} | {tag: "None", …}}` → `{p: v}`. */
function quintPicks(v: unknown, where: string): Record<string, ItfValue> {
  if (!isObject(v)) return {};
  const out: Record<string, ItfValue> = {};
  for (const [k, x] of Object.entries(v)) if (isObject(x) && x.tag === 'Some') out[k] = itf(x.value, `mbt::nondetPicks.${k}`, where);
  return out;
}

function plainParams(p: Record<string, ItfValue>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(p)) {
    const x = plain(v);
    out[k] = typeof x === 'number' || typeof x === 'string' ? stripType(x) : JSON.stringify(x);
  }
  return out;
}

/** Apalache writes a model value p1 of type POD as "p1_OF_POD". */
function stripType<T>(x: T): T {
  return (typeof x === 'string' ? x.replace(/_OF_[A-Z][A-Z0-9_]*$/, '') : x) as T;
}

/** An ITF value as plain JSON (integers as numbers, sets and tuples as arrays, maps as objects keyed by their string keys). */
function plain(v: ItfValue): unknown {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') return stripType(v);
  if (Array.isArray(v)) return v.map(plain);
  const o = v as Record<string, unknown>;
  if ('#bigint' in o) return Number(o['#bigint']);
  if ('#tup' in o) return (o['#tup'] as ItfValue[]).map(plain);
  if ('#set' in o) return (o['#set'] as ItfValue[]).map(plain);
  if ('#unserializable' in o) return o['#unserializable'];
  if ('#map' in o) return Object.fromEntries((o['#map'] as [ItfValue, ItfValue][]).map(([k, x]) => [String(plain(k)), plain(x)]));
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, plain(x as ItfValue)]));
}

function toFencing(n: Neutral, format: ForeignFormat, opts: ImportOptions, imported: TraceImport, where: string): FencingTrace {
  const fc = isObject(n.meta.fencecheck) ? n.meta.fencecheck : {};
  const states = n.states.map((s) => Object.fromEntries(n.vars.map((v) => [v, plain(s[v]!)])) as unknown as FencingState);
  const version = isObject(states[0]!.version) ? states[0]!.version : {};
  const fromMeta = isObject(fc.bounds) ? (fc.bounds as unknown as FencingBounds) : undefined;
  const bounds: FencingBounds = {
    pods: fromMeta?.pods ?? (Object.keys(version).sort(comparePods) as FencingBounds['pods']),
    maxGen: opts.maxGen ?? fromMeta?.maxGen ?? DEFAULT_BOUNDS.maxGen,
  };
  const notes = [...imported.notes];
  if (opts.maxGen === undefined && fromMeta?.maxGen === undefined) notes.push(`MaxGen is not in the trace: ${bounds.maxGen}, the base config's (set --max-gen)`);
  const inferred: number[] = [];
  const step = (k: number, given: Neutral['actions'][number], prev: FencingState | undefined, next: FencingState) => {
    if (k === 0) return { action: 'Init', params: {} };
    const known = given ? { action: given.action, params: plainParams(given.params) } : inferStep(k, prev!, next, bounds, notes, where, inferred);
    // A per-pod action named without its pod (older TLC labels): the pod is read off the state change.
    if (POD_ACTIONS.has(known.action) && known.params.p === undefined) {
      const p = podOfStep(known.action, prev!, next);
      if ('why' in p) throw new TraceFormatError(`${where}: step ${k} (${known.action}): cannot tell which pod acted: ${p.why}`);
      return { action: known.action, params: { p: p.pod } };
    }
    return known;
  };
  const steps = states.map((state, k) => ({ ...step(k, n.actions[k], states[k - 1], state), state }));
  if (inferred.length > 0) notes.push(`actions of step(s) ${inferred.join(', ')} inferred from the state changes with the XState model (models/fencing)`);
  let loopAction: LoopAction | undefined;
  if (n.loop !== undefined) {
    const last = states[states.length - 1]!;
    const back = states[n.loop]!;
    if (n.loopAction) loopAction = n.loopAction.action === 'Stuttering' ? { action: 'Stuttering', params: {} } : step(states.length, n.loopAction, last, back);
    else if (n.loop === states.length - 1 && JSON.stringify(last) === JSON.stringify(back)) loopAction = { action: 'Stuttering', params: {} };
    else {
      const sink: number[] = [];
      loopAction = inferStep(states.length, last, back, bounds, notes, where, sink);
      notes.push(`the lasso's closing action inferred from the state change with the XState model (models/fencing)`);
    }
  }
  const mutant = opts.mutant ?? (typeof fc.mutant === 'string' ? fc.mutant : undefined);
  const violated = typeof fc.violated === 'string' ? fc.violated : undefined;
  return {
    schema: TRACE_SCHEMA,
    system: 'fencing',
    source: format === 'tlc-json' ? 'tlc' : 'itf',
    bounds,
    ...(mutant !== undefined && { mutant }),
    ...(violated !== undefined && { violated }),
    brokenAtEnd: brokenInvariants(states[states.length - 1]!, bounds),
    steps,
    ...(n.loop !== undefined && { loop: n.loop }),
    ...(loopAction && { loopAction }),
    imported: { ...imported, notes },
  };
}

function inferStep(k: number, prev: FencingState, next: FencingState, bounds: FencingBounds, notes: string[], where: string, inferred: number[]) {
  const r = inferAction(prev, next, bounds);
  if ('none' in r) throw new TraceFormatError(`${where}: step ${k} names no action, and no action of the fencing model turns state ${k - 1} into state ${k}`);
  inferred.push(k);
  if (r.alternatives.length > 0) notes.push(`step ${k}: ${r.action}${r.params.p ? `(${r.params.p})` : ''} chosen; the state change also fits ${r.alternatives.join(', ')}`);
  return { action: r.action, params: r.params as Record<string, string | number> };
}

function toTla(n: Neutral, format: ForeignFormat, imported: TraceImport): TlaTrace {
  const spec = typeof n.meta.source === 'string' ? n.meta.source : undefined;
  return {
    schema: TRACE_SCHEMA,
    system: 'tla',
    source: format === 'tlc-json' ? 'tlc' : 'itf',
    ...(spec !== undefined && { spec }),
    vars: n.vars,
    steps: n.states.map((state, k) => ({
      action: k === 0 ? 'Init' : (n.actions[k]?.action ?? '?'),
      params: n.actions[k]?.params ?? {},
      state,
    })),
    ...(n.loop !== undefined && { loop: n.loop }),
    ...(n.loopAction && { loopAction: n.loopAction }),
    imported: { ...imported, notes: [...imported.notes, ...(n.actions.slice(1).some((a) => !a) ? ['some steps name no action (shown as ?)'] : [])] },
  };
}
