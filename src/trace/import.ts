/**
 * Traces from other tools as `fencecheck.trace/2`: TLC's `-dumpTrace json FILE` and ITF files
 * (Apalache, Quint, itf-rs/itf-py, `fencecheck trace export --itf`). Every variable of the file is
 * kept. The action of a step is read from whichever convention the file uses — our `#meta.action`
 * (+ `#meta.params`), `mbt::actionTaken` + `mbt::nondetPicks` (Apalache, itf-rs, Quint ≥ 0.23),
 * `action_taken` + `nondet_picks` (Quint ≤ 0.22, beside the variables), or a variable `action`
 * holding a tagged record `{tag: "Deliver", value: {…}}` (or a plain name) — and `name_OF_TYPE`
 * model values (Apalache's) lose their suffix, the same for every trace.
 *
 * A file whose spec variables are exactly one system's (or that says which: `--system`, our
 * export's `#meta.fencecheck.system`) becomes that system's trace, read through the system
 * (src/trace/systems.ts): a step that names no action, or no parameters, gets them from the system's
 * twin (infer-action.ts), and the notes say so. Any other spec's file is a `system: "tla"` trace.
 * Throws TraceFormatError naming the first problem.
 */
import { toItfValue, type ItfValue } from '../core/itf-value.js';
import { mutantsFor, type MutantEntry } from '../core/manifest.js';
import { FOREIGN_SYSTEM, TRACE_SCHEMA, TRACE_SOURCES, type ItfExtras, type LoopAction, type Step, type Trace, type TraceAction, type TraceImport, type TraceSource } from '../core/trace-format.js';
import { loadSystemManifest, type AnySystem } from '../registry/systems.js';
import { ModelPatchError, mutatedSystem } from '../seam/model-patch.js';
import { boundsLabel } from '../seam/system.js';
import { eventAction, namedAction, paramsFromTwin } from '../seam/trace.js';
import { inferAction } from './infer-action.js';
import { TraceFormatError, validateTrace } from './load.js';
import { allModels, modelAt, modelOf, readState, systemize } from './systems.js';

export type ForeignFormat = 'tlc-json' | 'itf';

export interface ImportOptions {
  readonly file?: string;
  /** The mutant the trace was made under (its twin infers actions; `trace replay` applies its implementation patch). */
  readonly mutant?: string;
  /** The system the trace is of (default: the one whose variables the file has, or what its #meta says). */
  readonly system?: string;
  /** TLA+ constants of the run that the file does not show (`MaxGen: '6'`), as `--const` gives them. */
  readonly constants?: Readonly<Record<string, string>>;
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

/** A trace before it knows its system: states as ITF values, actions when the file names them. */
interface Neutral {
  readonly vars: string[];
  /** Variables that only carry the action convention (not the spec's), for matching a system. */
  readonly conventionVars: readonly string[];
  readonly states: Record<string, ItfValue>[];
  /** Per state (index 0 is Init): the action that produced it, when the file names it. */
  readonly actions: (TraceAction | undefined)[];
  readonly loop?: number;
  readonly loopAction?: LoopAction;
  readonly meta: Record<string, unknown>;
  readonly notes: string[];
  /** ITF `params` (the constants) with the values the first state gives them. */
  readonly params?: Record<string, ItfValue>;
}

/** Apalache writes a model value p1 of the uninterpreted type POD as "p1_OF_POD". */
const TYPE_SUFFIX = /^(.*)_OF_([A-Z][A-Z0-9_]*)$/;

/**
 * Which typed model values lose their suffix, and the ones that did (name → type, for the export
 * to write them back). A name is stripped only when the file gives it one type and never writes it
 * bare: `{"#set": ["a_OF_T", "a_OF_U"]}` keeps both as written, not a set of two equal elements.
 */
interface Strip {
  n: number;
  readonly strippable: ReadonlyMap<string, string>;
  readonly used: Map<string, string>;
  /** Names written with two types, or also bare: kept as written. */
  readonly kept: readonly string[];
}

/** The typed model values of a file (every string under `root`), decided once for the whole file. */
function stripPlan(root: unknown): Strip {
  const types = new Map<string, Set<string>>();
  const bare = new Set<string>();
  const visit = (v: unknown): void => {
    if (typeof v === 'string') {
      const m = TYPE_SUFFIX.exec(v);
      if (!m) bare.add(v);
      else {
        const set = types.get(m[1]!) ?? new Set<string>();
        set.add(m[2]!);
        types.set(m[1]!, set);
      }
    } else if (Array.isArray(v)) v.forEach(visit);
    else if (isObject(v)) Object.values(v).forEach(visit);
  };
  visit(root);
  const strippable = new Map<string, string>();
  const kept: string[] = [];
  for (const [name, ts] of types) {
    if (ts.size === 1 && !bare.has(name)) strippable.set(name, [...ts][0]!);
    else kept.push(name);
  }
  return { n: 0, strippable, used: new Map(), kept };
}

/** Every typed model value of a value without its type suffix (those the plan strips); `stripped` counts them. */
function stripTypes(v: ItfValue, stripped: Strip): ItfValue {
  if (typeof v === 'string') {
    const m = TYPE_SUFFIX.exec(v);
    if (!m || stripped.strippable.get(m[1]!) !== m[2]) return v;
    stripped.n++;
    stripped.used.set(m[1]!, m[2]!);
    return m[1]!;
  }
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return v.map((x) => stripTypes(x, stripped));
  const o = v as Record<string, unknown>;
  if ('#bigint' in o || '#unserializable' in o) return v;
  if ('#tup' in o) return { '#tup': (o['#tup'] as ItfValue[]).map((x) => stripTypes(x, stripped)) };
  if ('#set' in o) return { '#set': (o['#set'] as ItfValue[]).map((x) => stripTypes(x, stripped)) };
  if ('#map' in o) return { '#map': (o['#map'] as [ItfValue, ItfValue][]).map(([k, x]) => [stripTypes(k, stripped), stripTypes(x, stripped)] as const) };
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, stripTypes(x as ItfValue, stripped)]));
}

function itf(v: unknown, at: string, where: string, stripped: Strip): ItfValue {
  const r = toItfValue(v, at);
  if ('problem' in r) throw new TraceFormatError(`${where}: ${r.problem}`);
  return stripTypes(r.value, stripped);
}

const itfRecord = (o: Record<string, unknown>, at: string, where: string, stripped: Strip): Record<string, ItfValue> =>
  Object.fromEntries(Object.entries(o).map(([k, x]) => [k, itf(x, `${at}.${k}`, where, stripped)]));

export async function importTrace(raw: unknown, opts: ImportOptions = {}): Promise<Trace> {
  const where = opts.file ?? 'trace';
  const format = foreignFormat(raw);
  if (!format) throw new TraceFormatError(`${where}: neither TLC's -dumpTrace json ({"counterexample", "vars"}) nor ITF ({"vars", "states"})`);
  const r = raw as Record<string, unknown>;
  const stripped = stripPlan(format === 'tlc-json' ? r.counterexample : [r.states, isObject(r['#meta']) ? r['#meta'].loopAction : undefined]);
  const n = format === 'tlc-json' ? fromTlcJson(r, where, stripped) : fromItf(r, where, stripped);
  if (stripped.n > 0) n.notes.push(`${stripped.n} value(s) lost a type suffix (Apalache's name_OF_TYPE model values; an ITF export writes it back)`);
  if (stripped.kept.length > 0) n.notes.push(`model values kept with their type suffix (one name of two types, or also written bare): ${stripped.kept.join(', ')}`);
  const imported: TraceImport = { format, ...(opts.file !== undefined && { file: opts.file }), notes: n.notes };
  const fc = isObject(n.meta.fencecheck) ? n.meta.fencecheck : {};
  const sys = await systemOf(n, opts.system ?? (typeof fc.system === 'string' ? fc.system : undefined), where);
  const trace = sys ? await asSystemTrace(n, sys, format, fc, opts, imported, where) : asForeign(n, format, imported);
  const extras: ItfExtras = {
    ...(n.params && Object.keys(n.params).length > 0 && { params: n.params }),
    ...(Object.keys(ownMeta(n.meta)).length > 0 && { meta: ownMeta(n.meta) }),
    ...(stripped.used.size > 0 && { types: Object.fromEntries([...stripped.used].sort(([a], [b]) => (a < b ? -1 : 1))) }),
  };
  return validateTrace(JSON.parse(JSON.stringify(Object.keys(extras).length > 0 ? { ...trace, itf: extras } : trace)), where);
}

/** What an ITF export writes into the trace's #meta itself; the rest of a file's #meta is the file's own. */
const GENERATED_META = new Set(['format', 'format-description', 'source', 'loopAction', 'fencecheck']);

function ownMeta(meta: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(meta).filter(([k]) => !GENERATED_META.has(k)));
}

/** The system the file is of: the one named, else the one whose variables its spec variables are exactly. */
async function systemOf(n: Neutral, named: string | undefined, where: string): Promise<AnySystem | undefined> {
  if (named === FOREIGN_SYSTEM) return undefined;
  if (named !== undefined) {
    const sys = await modelOf(named);
    if (!sys) throw new TraceFormatError(`${where}: no system named ${named} has a model (systems: ${(await allModels()).map((s) => s.name).join(', ')}, or ${FOREIGN_SYSTEM})`);
    return sys;
  }
  const spec = new Set(n.vars.filter((v) => !n.conventionVars.includes(v)));
  return (await allModels()).find((s) => s.variables.length === spec.size && s.variables.every((v) => spec.has(v)));
}

/**
 * TLC's -dumpTrace json: `{"vars": [...], "counterexample": {"state": [[i, {var: value}]…],
 * "action": [[[i, s], {"name", "context"?}, [j, s']]…]}}`. An action whose target is not the next
 * state closes a lasso (back to state j; `UnnamedAction` from a state to itself is stuttering).
 */
function fromTlcJson(raw: Record<string, unknown>, where: string, stripped: Strip): Neutral {
  const cx = raw.counterexample as Record<string, unknown>;
  const vars = (raw.vars as unknown[]).map(String);
  const states = (cx.state as unknown[]).map((entry, k) => {
    if (!Array.isArray(entry) || entry.length !== 2 || !Number.isInteger(entry[0]) || !isObject(entry[1]))
      throw new TraceFormatError(`${where}: counterexample.state[${k}] is not [index, {var: value}]`);
    return Object.fromEntries(Object.entries(entry[1]).map(([v, x]) => [v, itf(x, `state ${k + 1}: ${v}`, where, stripped)]));
  });
  if (states.length === 0) throw new TraceFormatError(`${where}: the counterexample has no states`);
  const actions: Neutral['actions'] = states.map(() => undefined);
  let loop: number | undefined;
  let loopAction: LoopAction | undefined;
  const list = Array.isArray(cx.action) ? cx.action : [];
  for (const [k, a] of list.entries()) {
    if (!Array.isArray(a) || a.length !== 3 || !Array.isArray(a[0]) || !Array.isArray(a[2]) || !isObject(a[1]))
      throw new TraceFormatError(`${where}: counterexample.action[${k}] is not [[i, s], {name}, [j, s']]`);
    const from = Number(a[0][0]);
    const to = Number(a[2][0]);
    const info = a[1];
    const params = isObject(info.context) ? itfRecord(info.context, `action ${k}`, where, stripped) : {};
    const name = typeof info.name === 'string' ? info.name : 'Next';
    if (to === from + 1) actions[to - 1] = { action: name, params };
    else {
      if (k !== list.length - 1) throw new TraceFormatError(`${where}: counterexample.action[${k}] goes from state ${from} to ${to}, but only the last action may close a lasso`);
      if (to < 1 || to > states.length) throw new TraceFormatError(`${where}: the lasso goes back to state ${to}, the trace has ${states.length}`);
      loop = to - 1;
      loopAction = to === from && name === 'UnnamedAction' ? { action: 'Stuttering', params: {} } : { action: name, params };
    }
  }
  return { vars, conventionVars: [], states, actions, ...(loop !== undefined && { loop }), ...(loopAction && { loopAction }), meta: {}, notes: ['converted from TLC -dumpTrace json'] };
}

/** Variables that, holding a tagged record or a name, say which action led to the state. */
const ACTION_VARIABLES = ['action', 'lastAction', 'last_action'];
/** Quint's and Apalache's metadata variables (in `vars`: Quint ≥ 0.23; beside them: Quint ≤ 0.22). */
const ACTION_TAKEN = ['mbt::actionTaken', 'action_taken'];
const NONDET_PICKS = ['mbt::nondetPicks', 'nondet_picks'];

/** An Option of Quint's `nondet_picks`: `{tag: "Some", value: v}` → v; `{tag: "None", …}` → absent. */
function picks(v: unknown, at: string, where: string, stripped: Strip): Record<string, ItfValue> {
  if (!isObject(v)) return {};
  const out: Record<string, ItfValue> = {};
  for (const [k, x] of Object.entries(v)) if (isObject(x) && x.tag === 'Some') out[k] = itf(x.value, `${at}.${k}`, where, stripped);
  return out;
}

/** A tagged action record `{tag, value}` (a Quint sum type): the tag and the value's fields (or the value as `arg0`). */
function tagged(v: ItfValue): TraceAction | undefined {
  if (typeof v === 'string') return v === '' ? undefined : { action: v, params: {} };
  if (!isObject(v)) return undefined;
  const { tag, value } = v as { tag?: unknown; value?: ItfValue };
  if (typeof tag !== 'string' || tag === '') return undefined;
  if (value === undefined) return { action: tag, params: {} };
  if (isObject(value) && Object.keys(value).every((k) => !k.startsWith('#'))) return { action: tag, params: value as Record<string, ItfValue> };
  if (isObject(value) && '#tup' in value && (value['#tup'] as unknown[]).length === 0) return { action: tag, params: {} };
  return { action: tag, params: { arg0: value } };
}

const INIT_NAMES = new Set(['', 'init', 'Init', 'q::init']);

/** Quint names the variables of an instance `main::instance::name`; Apalache's and Quint's own metadata are `mbt::…`. */
const QUALIFIER = /^(?:[A-Za-z_][A-Za-z0-9_]*::)+/;

function fromItf(raw: Record<string, unknown>, where: string, stripped: Strip): Neutral {
  const meta = isObject(raw['#meta']) ? raw['#meta'] : {};
  const fileVars = (raw.vars as unknown[]).map(String);
  if (new Set(fileVars).size !== fileVars.length) throw new TraceFormatError(`${where}: vars repeats a variable`);
  const notes: string[] = [`converted from ITF${typeof meta.source === 'string' ? ` (source ${meta.source})` : ''}`];
  // Instance qualifiers go when the bare names stay distinct: `main::spec::version` is the spec's `version`.
  const bare = fileVars.map((v) => (v.startsWith('mbt::') ? v : v.replace(QUALIFIER, '')));
  const qualified = bare.some((b, i) => b !== fileVars[i]) && new Set(bare).size === bare.length;
  const vars = qualified ? bare : fileVars;
  const fileName = (v: string) => fileVars[vars.indexOf(v)]!;
  if (qualified) notes.push(`instance qualifiers dropped from the variables (${fileVars.find((v, i) => v !== bare[i])} is ${bare[fileVars.findIndex((v, i) => v !== bare[i])]})`);
  const list = raw.states as unknown[];
  const sample = list.find(isObject);
  // The convention the file uses, decided once: a variable or a key every state carries.
  const has = (k: string) => list.every((s) => isObject(s) && k in s);
  const takenKey = ACTION_TAKEN.find(has);
  const picksKey = NONDET_PICKS.find(has);
  const actionVar = ACTION_VARIABLES.find(
    (v) => vars.includes(v) && sample !== undefined && tagged(stripTypes((toItfValue(sample[fileName(v)]) as { value?: ItfValue }).value ?? '', { ...stripped, n: 0, used: new Map() })) !== undefined,
  );
  const conventionVars = vars.filter((v) => v.startsWith('mbt::') || v === takenKey || v === picksKey || v === actionVar);
  const states: Record<string, ItfValue>[] = [];
  const actions: Neutral['actions'] = [];
  let fromMeta = 0;
  let fromTaken = 0;
  let fromVar = 0;
  for (const [k, s] of list.entries()) {
    if (!isObject(s)) throw new TraceFormatError(`${where}: states[${k}] is not an object`);
    const m = isObject(s['#meta']) ? s['#meta'] : {};
    if (m.index !== undefined && m.index !== k) throw new TraceFormatError(`${where}: states[${k}] has #meta.index ${JSON.stringify(m.index)}`);
    const state: Record<string, ItfValue> = {};
    for (const v of vars) {
      const f = fileName(v);
      if (!(f in s)) throw new TraceFormatError(`${where}: states[${k}] lacks variable ${f}`);
      state[v] = itf(s[f], `states[${k}].${f}`, where, stripped);
    }
    states.push(state);
    let a: TraceAction | undefined;
    if (typeof m.action === 'string') {
      a = { action: m.action, params: isObject(m.params) ? itfRecord(m.params, `states[${k}].#meta.params`, where, stripped) : {} };
      fromMeta++;
    } else if (takenKey !== undefined && typeof s[takenKey] === 'string') {
      a = { action: s[takenKey] as string, params: picksKey !== undefined ? picks(s[picksKey], `states[${k}].${picksKey}`, where, stripped) : {} };
      fromTaken++;
    } else if (actionVar !== undefined) {
      a = tagged(state[actionVar]!);
      if (a) fromVar++;
    }
    actions.push(k === 0 || a === undefined || INIT_NAMES.has(a.action) ? undefined : a);
  }
  if (states.length === 0) throw new TraceFormatError(`${where}: the ITF trace has no states`);
  if (fromTaken > 0) notes.push(`actions read from ${takenKey}${picksKey ? ` and their parameters from ${picksKey}` : ''}`);
  if (fromVar > 0) notes.push(`actions read from the variable ${actionVar} (a tagged record)`);
  if (fromMeta === 0 && fromTaken === 0 && fromVar === 0) notes.push('the file names no actions');
  let loop: number | undefined;
  if (raw.loop !== undefined && raw.loop !== null) {
    if (!Number.isInteger(raw.loop) || (raw.loop as number) < 0 || (raw.loop as number) >= states.length) throw new TraceFormatError(`${where}: loop must index a state (0..${states.length - 1})`);
    loop = raw.loop as number;
  }
  const la = isObject(meta.loopAction) && typeof meta.loopAction.action === 'string' ? meta.loopAction : undefined;
  const loopAction = la ? { action: la.action as string, params: isObject(la.params) ? itfRecord(la.params, 'loopAction', where, stripped) : {} } : undefined;
  // ITF params: names the first state sets, the constants of the run.
  let params: Record<string, ItfValue> | undefined;
  if (raw.params !== undefined) {
    if (!Array.isArray(raw.params) || raw.params.some((x) => typeof x !== 'string')) throw new TraceFormatError(`${where}: params must be an array of names`);
    const first = list[0] as Record<string, unknown>;
    params = {};
    for (const name of raw.params as string[]) {
      if (vars.includes(name)) throw new TraceFormatError(`${where}: ${name} is in both params and vars`);
      if (!(name in first)) throw new TraceFormatError(`${where}: params names ${name}, but the first state does not set it`);
      params[name] = itf(first[name], `states[0].${name}`, where, stripped);
    }
  }
  return { vars, conventionVars, states, actions, ...(loop !== undefined && { loop }), ...(loopAction && { loopAction }), meta, notes, ...(params && { params }) };
}

function sourceOf(format: ForeignFormat, fc: Record<string, unknown>): TraceSource {
  const s = fc.source;
  if (typeof s === 'string' && (TRACE_SOURCES as readonly string[]).includes(s)) return s as TraceSource;
  return format === 'tlc-json' ? 'tlc' : 'itf';
}

/** Any other spec's file: states as the file has them, steps that name no action shown as `?`. */
function asForeign(n: Neutral, format: ForeignFormat, imported: TraceImport): Trace {
  const spec = typeof n.meta.source === 'string' ? n.meta.source : undefined;
  const unnamed = n.actions.slice(1).some((a) => !a);
  return {
    schema: TRACE_SCHEMA,
    system: FOREIGN_SYSTEM,
    source: sourceOf(format, {}),
    ...(spec !== undefined && { spec }),
    vars: n.vars,
    steps: n.states.map((state, k) => ({ ...(k === 0 ? { action: 'Init', params: {} } : (n.actions[k] ?? { action: '?', params: {} })), state })),
    ...(n.loop !== undefined && { loop: n.loop }),
    ...(n.loopAction && { loopAction: n.loopAction }),
    imported: { ...imported, notes: [...imported.notes, ...(unnamed ? ['some steps name no action (shown as ?)'] : [])] },
  };
}

/**
 * The twins that infer actions, in two rounds: the trace's own (its mutant's, when it has a model
 * patch, then the base), and — only when those explain nothing — the system's other model mutants.
 */
function twinsFor(base: AnySystem, mutant: string | undefined): { own: () => Promise<AnySystem[]>; others: () => Promise<AnySystem[]> } {
  const entries = () => mutantsFor(loadSystemManifest(), 'model', base.name);
  const load = async (e: MutantEntry) => {
    try {
      return await mutatedSystem(base, e);
    } catch (err) {
      if (err instanceof ModelPatchError) return undefined;
      throw err;
    }
  };
  let own: Promise<AnySystem[]> | undefined;
  let others: Promise<AnySystem[]> | undefined;
  return {
    own: () =>
      (own ??= (async () => {
        const e = mutant === undefined ? undefined : entries().find((x) => x.id === mutant);
        const m = e ? await load(e) : undefined;
        return m ? [m, base] : [base];
      })()),
    others: () =>
      (others ??= (async () => {
        const out: AnySystem[] = [];
        for (const e of entries())
          if (e.id !== mutant) {
            const m = await load(e);
            if (m) out.push(m);
          }
        return out;
      })()),
  };
}

/** A file of one of the project's systems: read through it, missing actions and parameters from its twins. */
async function asSystemTrace(n: Neutral, base: AnySystem, format: ForeignFormat, fc: Record<string, unknown>, opts: ImportOptions, imported: TraceImport, where: string): Promise<Trace> {
  const notes = [...imported.notes];
  let sys = modelAt(base, fc.bounds, n.states[0], where);
  if (opts.constants && Object.keys(opts.constants).length > 0) {
    if (!sys.withConstants) throw new TraceFormatError(`${where}: the ${sys.name} model takes no constants`);
    try {
      sys = sys.withConstants(opts.constants);
    } catch (err) {
      if (err instanceof RangeError) throw new TraceFormatError(`${where}: ${err.message}`);
      throw err;
    }
  } else if (fc.bounds === undefined && sys.withBounds) notes.push(`constants the states do not show are the base config's (${boundsLabel(sys.bounds)}); set them with --const NAME=VALUE`);
  const mutant = opts.mutant ?? (typeof fc.mutant === 'string' ? fc.mutant : undefined);
  const states = n.states.map((s, k) => readState(sys, s, `state ${k}`, where));
  const twins = twinsFor(sys, mutant);
  const inferred: number[] = [];
  const by = new Set<string>();
  const named = (a: TraceAction): TraceAction => namedAction(sys, a);
  const relabelled: string[] = [];
  const takes = async (action: string, prev: unknown, next: unknown): Promise<boolean> => {
    for (const t of [...(await twins.own()), ...(await twins.others())]) {
      const want = t.key(next);
      if (t.successors(prev).some((x) => t.key(x.state) === want && eventAction(t, x.event).action === action)) return true;
    }
    return false;
  };
  const explain = async (k: number, given: TraceAction | undefined, prev: unknown, next: unknown): Promise<TraceAction> => {
    // A parameterised action named without its parameters (older TLC labels): read them off the twin.
    if (given && Object.keys(given.params).length === 0 && (sys.paramNames?.[given.action]?.length ?? 0) > 0) {
      for (const t of [...(await twins.own()), ...(await twins.others())]) {
        const p = paramsFromTwin(t, prev, given.action, next);
        if (p) return { action: given.action, params: p };
      }
      throw new TraceFormatError(`${where}: step ${k} (${given.action}): cannot tell its parameters: no one instance of ${given.action} of the ${sys.name} model leads there`);
    }
    // A name with no parameters that no twin's instance from here bears (TLC labels an action reached
    // through `\E c \in pending` by the enclosing `Next`): the twin's instance, as for a missing name.
    if (given && (Object.keys(given.params).length > 0 || (await takes(given.action, prev, next)))) return named(given);
    if (given) relabelled.push(`${k} (${given.action})`);
    const r = inferAction(await twins.own(), prev, next) ?? inferAction(await twins.others(), prev, next);
    if (!r) throw new TraceFormatError(`${where}: step ${k} names no action, and no action of the ${sys.name} model (nor of its model mutants) turns state ${k - 1} into state ${k}`);
    inferred.push(k);
    by.add(r.by);
    if (r.alternatives.length > 0) notes.push(`step ${k}: ${r.action.action} chosen; the state change also fits ${r.alternatives.join(', ')}`);
    return r.action;
  };
  const steps: Step[] = [];
  for (const [k, state] of n.states.entries()) {
    const a = k === 0 ? { action: 'Init', params: {} } : await explain(k, n.actions[k], states[k - 1], states[k]);
    steps.push({ ...a, state });
  }
  if (relabelled.length > 0) notes.push(`step(s) ${relabelled.join(', ')} name no action of the ${sys.name} model: inferred instead`);
  if (inferred.length > 0) notes.push(`actions of step(s) ${inferred.join(', ')} inferred from the state changes with the ${[...by].join(', ')} model's twin`);
  let loopAction: LoopAction | undefined;
  if (n.loop !== undefined) {
    const last = states[states.length - 1];
    const back = states[n.loop];
    if (n.loopAction?.action === 'Stuttering') loopAction = n.loopAction;
    else if (n.loopAction) loopAction = await explain(states.length, n.loopAction, last, back);
    else if (n.loop === states.length - 1 && sys.key(last) === sys.key(back)) loopAction = { action: 'Stuttering', params: {} };
    else {
      const r = inferAction(await twins.own(), last, back) ?? inferAction(await twins.others(), last, back);
      if (!r) throw new TraceFormatError(`${where}: no action of the ${sys.name} model closes the lasso back to state ${n.loop}`);
      loopAction = r.action;
      notes.push(`the lasso's closing action inferred from the state change with the ${r.by} model's twin`);
    }
  }
  const violated = typeof fc.violated === 'string' ? fc.violated : undefined;
  const spec = typeof n.meta.source === 'string' && n.meta.source !== 'unknown' ? n.meta.source : undefined;
  const trace: Trace = {
    schema: TRACE_SCHEMA,
    system: sys.name,
    source: sourceOf(format, fc),
    ...(spec !== undefined && { spec }),
    vars: n.vars,
    ...(mutant !== undefined && { mutant }),
    ...(violated !== undefined && { violated }),
    steps,
    ...(n.loop !== undefined && { loop: n.loop }),
    ...(loopAction && { loopAction }),
    imported: { ...imported, notes },
  };
  return systemize(trace, sys, where);
}
