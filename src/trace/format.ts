/**
 * The one counterexample trace format (docs/trace-format.md). TLC traces, XState exploration paths
 * and fast-check runs are all saved as this, so `fencecheck trace show|replay` reads every layer's.
 */
import type { FencingBounds, FencingState } from '../fencing/state.js';

export const TRACE_SCHEMA = 'fencecheck.trace/1' as const;

export type TraceSource = 'tlc' | 'model' | 'props' | 'limiter' | 'conform';

/** One step: the TLA+ action that produced `state` (the first step is `Init`). */
export interface TraceStep {
  /** TLA+ action name, e.g. `AcquireB`, `RollbackPhase`, `Init`. */
  readonly action: string;
  /** Action parameters, e.g. `{ p: 'p1' }`. */
  readonly params: Readonly<Record<string, string | number>>;
  /** The model state after the step, in the spec's variables. */
  readonly state: FencingState;
  /** Free-form details a layer observed at this step (the real keyspace, a script reply). */
  readonly observed?: Readonly<Record<string, unknown>>;
}

export interface FencingTrace {
  readonly schema: typeof TRACE_SCHEMA;
  readonly system: 'fencing';
  readonly source: TraceSource;
  readonly bounds: FencingBounds;
  /** Mutant id from mutants/manifest.json when the trace was produced under a mutant. */
  readonly mutant?: string;
  /** The invariant whose violation ends the trace, if any. */
  readonly violated?: string;
  /** Every invariant the last state breaks. */
  readonly brokenAtEnd?: readonly string[];
  /** fast-check replay data. */
  readonly seed?: number;
  readonly path?: string;
  readonly steps: readonly TraceStep[];
}
