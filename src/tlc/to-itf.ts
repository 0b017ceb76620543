import { tlaToItf, type ItfValue } from '../core/itf-value.js';
import { FOREIGN_SYSTEM, TRACE_SCHEMA, type Step, type Trace } from '../core/trace-format.js';
import { parseTlaValue } from '../core/tla-value.js';
import type { TlcResult } from './tool-output.js';

// The conversion of values lives in the ground layer; re-exported for callers of this module.
export { tlaToItf };

/** An action argument as TLC printed it (`1`, `p1`, `"x"`), as ITF; kept as text when it is not a value. */
function argItf(text: string): ItfValue {
  try {
    return tlaToItf(parseTlaValue(text));
  } catch {
    return { '#unserializable': text };
  }
}

const argParams = (args: readonly string[]): Record<string, ItfValue> => Object.fromEntries(args.map((a, i) => [`arg${i}`, argItf(a)]));

/**
 * TLC's error trace of any spec as a `system: "tla"` trace (a system's own spec gets its system's
 * trace through the seam instead: src/seam/trace.ts tlcTrace): each step's action and arguments (TLC
 * prints the values of the action's parameters, not their names, so they are `arg0`, `arg1`, …),
 * the variables as ITF values, and a lasso's loop.
 */
export function toTlaTrace(r: TlcResult, spec?: string): Trace | undefined {
  if (r.trace.length === 0) return undefined;
  const vars = [...new Set(r.trace.flatMap((s) => Object.keys(s.vars)))].sort();
  const steps: Step[] = r.trace.map((s) => ({
    action: s.action,
    params: argParams(s.args),
    state: Object.fromEntries(Object.entries(s.vars).map(([k, x]) => [k, tlaToItf(x)])),
  }));
  const loop = r.loop;
  return {
    schema: TRACE_SCHEMA,
    system: FOREIGN_SYSTEM,
    source: 'tlc',
    ...(spec !== undefined && { spec }),
    ...(r.violated !== undefined && { violated: r.violated }),
    vars,
    steps,
    ...(loop && {
      loop: loop.toIndex - 1,
      loopAction: loop.kind === 'stuttering' ? { action: 'Stuttering', params: {} } : { action: loop.action, params: argParams(loop.args) },
    }),
  };
}
