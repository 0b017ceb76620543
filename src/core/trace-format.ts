/**
 * The one counterexample trace format (docs/trace-format.md, docs/schema/fencecheck.trace-1.schema.json).
 * TLC traces, XState exploration paths and fast-check runs are all saved as this, so
 * `fencecheck trace show|replay` reads every layer's. Traces of other specs (any TLC run, an ITF
 * file from Apalache or Quint) are `system: "tla"` traces: the same envelope, states as ITF values.
 */
import type { FencingBounds, FencingState } from '../systems/fencing/state.js';
import type { ItfValue } from '../trace/itf-value.js';

export const TRACE_SCHEMA = 'fencecheck.trace/1' as const;

/** `itf`: imported from an ITF file (Apalache, Quint, or `trace export --itf`). */
export type TraceSource = 'tlc' | 'model' | 'props' | 'limiter' | 'conform' | 'itf';

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

/**
 * A lasso's closing step: from the last state back to `steps[loop]` (TLC's "Back to state", ITF's
 * `loop`). `Stuttering` when the behaviour stays in its last state forever.
 */
export interface LoopAction {
  readonly action: string;
  readonly params: Readonly<Record<string, string | number>>;
}

/** Where an imported trace came from, and what the import had to work out itself. */
export interface TraceImport {
  /** `tlc-json` (TLC's -dumpTrace json) or `itf`. */
  readonly format: 'tlc-json' | 'itf';
  readonly file?: string;
  /** E.g. "actions inferred from the state changes with the XState model (models/fencing)". */
  readonly notes: readonly string[];
}

interface TraceCommon {
  readonly schema: typeof TRACE_SCHEMA;
  readonly source: TraceSource;
  /** The invariant (or property) whose violation ends the trace, if any. */
  readonly violated?: string;
  /** Lasso: the index of the state the closing step returns to (`loopAction` is that step). */
  readonly loop?: number;
  readonly imported?: TraceImport;
}

export interface FencingTrace extends TraceCommon {
  readonly system: 'fencing';
  readonly bounds: FencingBounds;
  /** Mutant id from mutants/manifest.json when the trace was produced under a mutant. */
  readonly mutant?: string;
  /** Every invariant the last state breaks. */
  readonly brokenAtEnd?: readonly string[];
  /** fast-check replay data. */
  readonly seed?: number;
  readonly path?: string;
  readonly steps: readonly TraceStep[];
  readonly loopAction?: LoopAction;
}

/** A step of another spec: its variables as ITF values (src/trace/itf-value.ts). */
export interface TlaTraceStep {
  readonly action: string;
  readonly params: Readonly<Record<string, ItfValue>>;
  readonly state: Readonly<Record<string, ItfValue>>;
}

/** A trace of any TLA+ spec (shown by `trace show`; only fencing traces replay). */
export interface TlaTrace extends TraceCommon {
  readonly system: 'tla';
  /** The spec's module or file name, when known. */
  readonly spec?: string;
  /** The spec's variables, in the order to show them. */
  readonly vars: readonly string[];
  readonly steps: readonly TlaTraceStep[];
  readonly loopAction?: { readonly action: string; readonly params: Readonly<Record<string, ItfValue>> };
}

export type AnyTrace = FencingTrace | TlaTrace;
