/**
 * A trace read through its system: the models come from the registry, by the trace's `system`, and
 * every state is read with the system's own `fromTlc` and written back with its `toTla` — the exact
 * TLA+ values (a /1 file's or an ITF file's plain JSON becomes the spec's functions, sets and model
 * values), the invariants each state breaks, the system's variables first, positional parameters
 * (`arg0`, as TLC's traces give them) named as the spec names them. A trace of no system of
 * the project (`tla`) is left as it is. Nothing here names a system.
 */
import { FOREIGN_SYSTEM, type Trace } from '../core/trace-format.js';
import { TlcOutputError } from '../core/tlc-errors.js';
import { SYSTEMS, type AnySystem } from '../registry/systems.js';
import { brokenInvariants, namedAction, stateFromItf, stateToItf } from '../seam/trace.js';
import { TraceFormatError } from './load.js';

/** The model of a system by name, or undefined for a name that has none (`tla`, a system without a TLA+ model). */
export async function modelOf(name: string): Promise<AnySystem | undefined> {
  if (name === FOREIGN_SYSTEM) return undefined;
  const load = SYSTEMS[name];
  return load ? load() : undefined;
}

/** Every system with a model, loaded (to match a foreign file's variables). */
export async function allModels(): Promise<AnySystem[]> {
  return Promise.all(Object.values(SYSTEMS).map((load) => load()));
}

/**
 * The system at the trace's bounds: those it records (`bounds`), else those its first state shows
 * (the system's boundsOf), else the system's own. Bounds the system cannot take are bad input.
 */
export function modelAt(sys: AnySystem, bounds: unknown, first: Readonly<Record<string, unknown>> | undefined, where: string): AnySystem {
  if (!sys.withBounds) return sys;
  try {
    if (bounds !== undefined) return sys.withBounds(bounds);
    if (first !== undefined && sys.boundsOf) return sys.withBounds(sys.boundsOf(stateFromItf(sys, first as never)));
  } catch (err) {
    if (err instanceof RangeError) throw new TraceFormatError(`${where}: ${err.message}`);
    if (err instanceof TlcOutputError) throw new TraceFormatError(`${where}: the first state is not a state of the ${sys.name} model: ${err.message}`);
    throw err;
  }
  return sys;
}

/** Step `i`'s state as the system's, or TraceFormatError naming the step and what does not fit. */
export function readState(sys: AnySystem, state: Readonly<Record<string, unknown>>, at: string, where: string): unknown {
  try {
    return stateFromItf(sys, state as never);
  } catch (err) {
    if (err instanceof TlcOutputError) throw new TraceFormatError(`${where}: ${at} is not a state of the ${sys.name} model: ${err.message}`);
    throw err;
  }
}

/**
 * The trace with every state read through `sys`: the system's variables first (in its order, each
 * exact), the file's other variables after them as they were; each step's broken invariants and
 * brokenAtEnd; the system's bounds and spec unless the trace names its own spec.
 */
export function systemize(trace: Trace, sys: AnySystem, where = 'trace'): Trace {
  const missing = sys.variables.filter((v) => !trace.vars.includes(v));
  if (missing.length > 0) throw new TraceFormatError(`${where}: a ${trace.system} trace needs the variables ${missing.join(', ')}`);
  const extra = trace.vars.filter((v) => !sys.variables.includes(v));
  const steps = trace.steps.map((step, i) => {
    const s = readState(sys, step.state, `steps[${i}]`, where);
    const state = { ...stateToItf(sys, s), ...Object.fromEntries(extra.map((v) => [v, step.state[v]!])) };
    return { ...step, ...namedAction(sys, step), state, broken: brokenInvariants(sys, s) };
  });
  return {
    ...trace,
    spec: trace.spec ?? sys.spec,
    vars: [...sys.variables, ...extra],
    bounds: sys.bounds,
    steps,
    brokenAtEnd: steps[steps.length - 1]!.broken,
    ...(trace.loopAction && { loopAction: namedAction(sys, trace.loopAction) }),
  };
}

/** A validated trace read through its system when it has a model (the system at the trace's bounds). */
export async function withSystem(trace: Trace, where = 'trace'): Promise<Trace> {
  const sys = await modelOf(trace.system);
  if (!sys) return trace;
  return systemize(trace, modelAt(sys, trace.bounds, trace.steps[0]?.state, where), where);
}
