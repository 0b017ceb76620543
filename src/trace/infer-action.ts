/**
 * Which action of a system's twin explains a step of a trace that names none (an ITF file without
 * actions): the enabled instances of the previous state whose successor has the next state's key
 * (the seam's successors and key, so every system infers the same way). Twins are tried in order —
 * the trace's own (its mutant's, when it names one), then any others given (the system's model
 * mutants: a mutant's counterexample takes steps the shipped guards refuse) — and the first that
 * explains the step wins; other instances that fit equally are returned as alternatives.
 */
import type { TraceAction } from '../core/trace-format.js';
import type { AnySystem } from '../registry/systems.js';
import { eventAction } from '../seam/trace.js';

export interface Inference {
  readonly action: TraceAction;
  /** Other action instances of the same twin that lead to the same state. */
  readonly alternatives: readonly string[];
  /** The twin that explained it (the system's name, or `<system>/<mutant>`). */
  readonly by: string;
}

export function inferAction(twins: readonly AnySystem[], prev: unknown, next: unknown): Inference | undefined {
  for (const twin of twins) {
    const want = twin.key(next);
    const fits = twin.successors(prev).filter((x) => twin.key(x.state) === want);
    if (fits.length === 0) continue;
    return { action: eventAction(twin, fits[0]!.event), alternatives: fits.slice(1).map((x) => twin.label(x.event)), by: twin.name };
  }
  return undefined;
}
