/**
 * The conformance tour's counterexample (src/systems/fencing/tour/, which still builds its trace in
 * the model's own form) saved as a fencecheck.trace/2 trace of the fencing system: its states through
 * the system's toTla, each step's broken invariants. Every other path becomes a trace through the
 * seam (src/seam/trace.ts pathToTrace); this goes when the tour moves onto the seam's.
 */
import { toItfValue, type ItfValue } from '../../../core/itf-value.js';
import type { TraceLike, ModelStep } from '../../../core/trace-format.js';
import { saveTrace as saveSeamTrace, traceOfStates } from '../../../seam/trace.js';
import type { FencingState } from '../state.js';
import { fencingBounds, fencingSystem } from '../system.js';

export { DEFAULT_TRACE_DIR } from '../../../seam/trace.js';

const itfParams = (p: Readonly<Record<string, unknown>>): Record<string, ItfValue> =>
  Object.fromEntries(
    Object.entries(p).map(([k, v]) => {
      const r = toItfValue(v, k);
      return [k, 'problem' in r ? { '#unserializable': String(v) } : r.value];
    }),
  );

/** Writes the tour's trace under `dir` (default reports/traces) as /2; returns its path relative to the project root. */
export function saveTrace(trace: TraceLike, fileName: string, dir?: string): string {
  if ('vars' in trace) return saveSeamTrace(trace, fileName, dir);
  const sys = fencingSystem(trace.bounds === undefined ? undefined : fencingBounds(trace.bounds));
  const steps = (trace.steps as readonly ModelStep[]).map((s) => {
    const note = typeof s.observed?.note === 'string' ? s.observed.note : undefined;
    return { action: s.action, params: itfParams(s.params), state: s.state as FencingState, ...(s.observed && { observed: s.observed }), ...(note !== undefined && { note }) };
  });
  const t = traceOfStates(sys, steps, {
    source: trace.source,
    ...(trace.mutant !== undefined && { mutant: trace.mutant }),
    ...(trace.violated !== undefined && { violated: trace.violated }),
    ...(trace.seed !== undefined && { seed: trace.seed }),
    ...(trace.path !== undefined && { path: trace.path }),
  });
  // The patch file the trace was made under (src/seam/patch-file.ts): replay applies it.
  return saveSeamTrace(trace.patch ? { ...t, patch: trace.patch } : t, fileName, dir);
}
