/**
 * Traces of any system on the seam (fencecheck.trace/2, src/core/trace-format.ts): a system's states
 * as the spec's variables in ITF (its `toTla`), its events as TLA+ action instances (its `label`,
 * parameters named as the spec names them), the invariants each state breaks (its `invariants`). One
 * builder for every producer: an exploration path, TLC's counterexample, a tour's or a run's steps.
 * Nothing here names a system.
 */
import { itfText, itfToTla, tlaToItf, type ItfValue } from '../core/itf-value.js';
import { writeTraceFile } from '../core/trace-dir.js';
import { parseTlaValue, type TlaValue } from '../core/tla-value.js';
import { TlcOutputError } from '../core/tlc-errors.js';
import { baseSystemName, TRACE_SCHEMA, type LoopAction, type Step, type Trace, type TraceAction, type TraceSource } from '../core/trace-format.js';
import { parseActionLabel, type TlcResult } from '../tlc/tool-output.js';
import type { PathStep } from './explore.js';
import type { ModelSystem } from './system.js';

export { DEFAULT_TRACE_DIR } from '../core/trace-dir.js';

/** S as the trace's state: each of the system's variables → its ITF value. */
export function stateToItf<S, E>(sys: ModelSystem<S, E>, s: S): Record<string, ItfValue> {
  const tla = sys.toTla(s);
  return Object.fromEntries(
    sys.variables.map((v) => {
      const x = tla[v];
      if (x === undefined) throw new Error(`${sys.name}: toTla gives no ${v}`);
      return [v, tlaToItf(x)];
    }),
  );
}

/** A trace's state (its ITF values; variables the system lacks are ignored) as S; throws TlcOutputError naming what does not fit. */
export function stateFromItf<S, E>(sys: ModelSystem<S, E>, state: Readonly<Record<string, ItfValue>>): S {
  const vars: Record<string, TlaValue> = {};
  for (const v of sys.variables) {
    const x = state[v];
    if (x === undefined) throw new TlcOutputError(`state has no variable ${v}`);
    vars[v] = itfToTla(x);
  }
  return sys.fromTlc(vars);
}

/** The invariants of the system's model `s` breaks, in the system's order. */
export function brokenInvariants<S, E>(sys: ModelSystem<S, E>, s: S): string[] {
  return Object.entries(sys.invariants)
    .filter(([, inv]) => !inv(s))
    .map(([n]) => n);
}

/** An argument as TLC or a label prints it (`p1`, `[a |-> 1]`), as ITF; kept as text when it is no value. */
function argItf(text: string): ItfValue {
  try {
    return tlaToItf(parseTlaValue(text));
  } catch {
    return { '#unserializable': text };
  }
}

/** Positional arguments named as the spec names the action's parameters, else `arg0`, `arg1`, …. */
export function namedParams(action: string, args: readonly ItfValue[], names?: Readonly<Record<string, readonly string[]>>): Record<string, ItfValue> {
  const n = names?.[action];
  const named = n !== undefined && n.length === args.length;
  return Object.fromEntries(args.map((a, i) => [named ? n[i]! : `arg${i}`, a]));
}

/** An action whose parameters are positional (`arg0`, `arg1`, as TLC's traces and a variant's bare value give them) with the spec's names. */
export function namedAction<S, E>(sys: ModelSystem<S, E>, a: TraceAction): TraceAction {
  const keys = Object.keys(a.params);
  const names = sys.paramNames?.[a.action];
  if (!names || keys.length !== names.length || !keys.every((k, i) => k === `arg${i}`)) return a;
  return { action: a.action, params: Object.fromEntries(keys.map((k, i) => [names[i]!, a.params[k]!])) };
}

/** A TLA+ action instance as printed (`Deliver(r1, [paused |-> TRUE, version |-> 1])`) as its name and named parameters. */
export function actionOfLabel(label: string, names?: Readonly<Record<string, readonly string[]>>): TraceAction {
  const { action, args } = parseActionLabel(label);
  return { action, params: namedParams(action, args.map(argItf), names) };
}

/** An event of the system as the TLA+ action instance it is (the system's label, read back). */
export function eventAction<S, E>(sys: ModelSystem<S, E>, e: E): TraceAction {
  return actionOfLabel(sys.label(e), sys.paramNames);
}

/** One step of a behaviour in the system's own form, before it becomes a trace step. */
export interface StateStep<S> {
  readonly action: string;
  readonly params: Readonly<Record<string, ItfValue>>;
  readonly state: S;
  readonly observed?: Readonly<Record<string, unknown>>;
  readonly note?: string;
}

export interface TraceMeta {
  readonly source: TraceSource;
  readonly mutant?: string;
  readonly violated?: string;
  readonly seed?: number;
  readonly path?: string;
  readonly loop?: number;
  readonly loopAction?: LoopAction;
}

/** A behaviour of the system as a trace: every state in ITF with the invariants it breaks, the system's bounds and spec. */
export function traceOfStates<S, E>(sys: ModelSystem<S, E>, steps: readonly StateStep<S>[], meta: TraceMeta): Trace {
  if (steps.length === 0) throw new RangeError(`${sys.name}: a trace needs at least its initial state`);
  const out: Step[] = steps.map((s) => ({
    action: s.action,
    params: s.params,
    state: stateToItf(sys, s.state),
    broken: brokenInvariants(sys, s.state),
    ...(s.observed !== undefined && { observed: s.observed }),
    ...(s.note !== undefined && { note: s.note }),
  }));
  return {
    schema: TRACE_SCHEMA,
    system: baseSystemName(sys.name),
    source: meta.source,
    spec: sys.spec,
    vars: [...sys.variables],
    bounds: sys.bounds,
    ...(meta.mutant !== undefined && { mutant: meta.mutant }),
    ...(meta.violated !== undefined && { violated: meta.violated }),
    brokenAtEnd: out[out.length - 1]!.broken!,
    ...(meta.seed !== undefined && { seed: meta.seed }),
    ...(meta.path !== undefined && { path: meta.path }),
    steps: out,
    ...(meta.loop !== undefined && { loop: meta.loop }),
    ...(meta.loopAction !== undefined && { loopAction: meta.loopAction }),
  };
}

/** An exploration path (src/seam/explore.ts) as a trace (source `model` unless said otherwise). */
export function pathToTrace<S, E>(sys: ModelSystem<S, E>, path: readonly PathStep<S, E>[], meta: Partial<TraceMeta> = {}): Trace {
  const steps = path.map(({ event, state }) => ({ ...(event === null ? { action: 'Init', params: {} } : eventAction(sys, event)), state }));
  return traceOfStates(sys, steps, { source: 'model', ...meta });
}

/**
 * The parameters of a step that names its action but not its arguments (older TLC releases print
 * `<AcquireB line …>`): those of the one instance of that action the twin takes from `prev` to a state
 * with `next`'s key. Undefined when none or several fit.
 */
export function paramsFromTwin<S, E>(sys: ModelSystem<S, E>, prev: S, action: string, next: S): Readonly<Record<string, ItfValue>> | undefined {
  const want = sys.key(next);
  const fits = sys
    .successors(prev)
    .map((x) => ({ a: eventAction(sys, x.event), key: sys.key(x.state) }))
    .filter((x) => x.a.action === action && x.key === want);
  return fits.length === 1 ? fits[0]!.a.params : undefined;
}

/**
 * TLC's error trace of one of the system's configs as the system's trace: the states read through the
 * system (fromTlc, then toTla: the same ITF as the twin's traces), the actions' arguments named, the
 * invariants each state breaks, a lasso's closing step. A state the system cannot read keeps TLC's
 * values as they are and is judged by no invariant. `twin` (default: the system; a mutant's run: its
 * mutated twin) explains steps TLC labels only `Next`. Undefined when TLC printed no trace.
 */
export function tlcTrace<S, E>(sys: ModelSystem<S, E>, r: TlcResult, meta: { mutant?: string; twin?: ModelSystem<S, E> } = {}): Trace | undefined {
  if (r.trace.length === 0) return undefined;
  const read = r.trace.map((t) => {
    try {
      return sys.fromTlc(t.vars);
    } catch (err) {
      if (err instanceof TlcOutputError) return undefined;
      throw err;
    }
  });
  const argsOf = (action: string, args: readonly string[], prev: S | undefined, next: S | undefined): Readonly<Record<string, ItfValue>> => {
    const n = sys.paramNames?.[action];
    if (args.length === 0 && n && n.length > 0 && prev !== undefined && next !== undefined) return paramsFromTwin(meta.twin ?? sys, prev, action, next) ?? {};
    return namedParams(action, args.map(argItf), sys.paramNames);
  };
  // TLC labels a step by the operator it came from; an action reached through a quantifier over a
  // state's own set (`\E c \in pending : Commit(c)`) is labelled by the enclosing `Next`. Such a step
  // takes the one action instance of the twin that leads there, and says so.
  const stepOf = (t: TlcResult['trace'][number], prev: S | undefined, next: S | undefined): Pick<Step, 'action' | 'params' | 'note'> => {
    if (prev === undefined || next === undefined || (sys.actions ?? []).includes(t.action) || sys.paramNames?.[t.action] !== undefined)
      return { action: t.action, params: argsOf(t.action, t.args, prev, next) };
    const want = sys.key(next);
    const twin = meta.twin ?? sys;
    const fits = twin
      .successors(prev)
      .filter((x) => twin.key(x.state) === want)
      .map((x) => eventAction(twin, x.event));
    const names = new Set(fits.map((f) => f.action));
    if (names.has(t.action) || fits.length === 0 || names.size > 1) return { action: t.action, params: argsOf(t.action, t.args, prev, next) };
    const one = fits[0]!;
    return { ...one, note: `TLC labelled this step ${t.action}; ${actionText(one)} is the twin's ${fits.length === 1 ? 'one instance' : `first of ${fits.length} equal instances`} leading here` };
  };
  const steps: Step[] = r.trace.map((t, i) => {
    const s = read[i];
    const state = s !== undefined ? stateToItf(sys, s) : Object.fromEntries(Object.entries(t.vars).map(([k, x]) => [k, tlaToItf(x)]));
    const a = i === 0 ? { action: t.action, params: {} } : stepOf(t, read[i - 1], s);
    return { ...a, state, ...(s !== undefined && { broken: brokenInvariants(sys, s) }) };
  });
  const loop = r.loop;
  let loopAction: LoopAction | undefined;
  if (loop?.kind === 'stuttering') loopAction = { action: 'Stuttering', params: {} };
  else if (loop) {
    if (loop.toIndex < 1 || loop.toIndex > steps.length) throw new TlcOutputError(`the lasso goes back to state ${loop.toIndex}, but the trace has ${steps.length} states`);
    loopAction = { action: loop.action, params: argsOf(loop.action, loop.args, read[read.length - 1], read[loop.toIndex - 1]) };
  }
  const last = steps[steps.length - 1]!;
  return {
    schema: TRACE_SCHEMA,
    system: baseSystemName(sys.name),
    source: 'tlc',
    spec: sys.spec,
    vars: [...sys.variables],
    bounds: sys.bounds,
    ...(meta.mutant !== undefined && { mutant: meta.mutant }),
    ...(r.violated !== undefined && { violated: r.violated }),
    ...(last.broken !== undefined && { brokenAtEnd: last.broken }),
    steps,
    ...(loop && { loop: loop.toIndex - 1, loopAction: loopAction! }),
  };
}

/** Writes the trace as JSON under `dir` (default: the trace folder, src/core/trace-dir.ts); returns its shown path. */
export function saveTrace(trace: Trace, fileName: string, dir?: string): string {
  return writeTraceFile(trace, fileName, dir);
}

/** One line per step: the action with its arguments, then each variable it changed (`old → new`) and the invariants it newly breaks. */
export function formatTracePath(trace: Trace, indent = '  '): string {
  const width = Math.max(...trace.steps.map((s) => actionText(s).length));
  return trace.steps
    .map((step, i) => {
      const label = actionText(step);
      if (i === 0) return `${indent}${String(i).padStart(2)}. ${label}`;
      const before = trace.steps[i - 1]!;
      const changes = trace.vars.filter((v) => JSON.stringify(before.state[v]) !== JSON.stringify(step.state[v])).map((v) => `${v}: ${itfText(before.state[v]!)} → ${itfText(step.state[v]!)}`);
      const newly = (step.broken ?? []).filter((b) => !(before.broken ?? []).includes(b));
      return `${indent}${String(i).padStart(2)}. ${label.padEnd(width)}  ${changes.length > 0 ? changes.join(', ') : '(no change)'}${newly.length > 0 ? `   ⚠ breaks ${newly.join(',')}` : ''}`;
    })
    .join('\n');
}

function actionText(a: TraceAction): string {
  const args = Object.values(a.params).map(itfText);
  return args.length > 0 ? `${a.action}(${args.join(', ')})` : a.action;
}
