import { TRACE_SCHEMA, type TlaTrace, type TlaTraceStep } from '../core/trace-format.js';
import type { ItfValue } from '../trace/itf-value.js';
import { parseTlaValue, type TlaValue } from '../core/tla-value.js';
import type { TlcResult } from './tool-output.js';

/** Intervals up to this many elements are written out as a set; longer ones stay `lo..hi` text. */
const MAX_ENUMERATED = 10_000;

/**
 * A TLC value as ITF. Model values become strings (as TLC's own -dumpTrace json and Apalache write
 * them); a function whose domain is 1..n is printed by TLC as a sequence and stays one; a value the
 * parser could not read is kept as `#unserializable` with TLC's text.
 */
export function tlaToItf(v: TlaValue): ItfValue {
  switch (v.kind) {
    case 'int':
      return { '#bigint': String(v.value) };
    case 'str':
      return v.value;
    case 'bool':
      return v.value;
    case 'mv':
      return v.name;
    case 'interval': {
      if (v.hi < v.lo) return { '#set': [] };
      if (v.hi - v.lo + 1 > MAX_ENUMERATED) return { '#unserializable': `${v.lo}..${v.hi}` };
      return { '#set': Array.from({ length: v.hi - v.lo + 1 }, (_, i) => ({ '#bigint': String(v.lo + i) })) };
    }
    case 'record':
      return Object.fromEntries(Object.entries(v.fields).map(([k, x]) => [k, tlaToItf(x)]));
    case 'fn':
      return { '#map': v.entries.map(([k, x]) => [tlaToItf(k), tlaToItf(x)] as const) };
    case 'set':
      return { '#set': v.items.map(tlaToItf) };
    case 'seq':
      return v.items.map(tlaToItf);
    case 'unreadable':
      return { '#unserializable': v.text };
  }
}

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
 * TLC's error trace of any spec as a `system: "tla"` trace: each step's action and arguments (TLC
 * prints the values of the action's parameters, not their names, so they are `arg0`, `arg1`, …),
 * the variables as ITF values, and a lasso's loop.
 */
export function toTlaTrace(r: TlcResult, spec?: string): TlaTrace | undefined {
  if (r.trace.length === 0) return undefined;
  const vars = [...new Set(r.trace.flatMap((s) => Object.keys(s.vars)))].sort();
  const steps: TlaTraceStep[] = r.trace.map((s) => ({
    action: s.action,
    params: argParams(s.args),
    state: Object.fromEntries(Object.entries(s.vars).map(([k, x]) => [k, tlaToItf(x)])),
  }));
  const loop = r.loop;
  return {
    schema: TRACE_SCHEMA,
    system: 'tla',
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
