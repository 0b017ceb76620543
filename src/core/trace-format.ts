/**
 * The one trace format of every system, `fencecheck.trace/2` (docs/trace-format.md,
 * docs/schema/fencecheck.trace-2.schema.json). TLC's counterexamples, the twins' exploration paths,
 * the conformance tour and the property runs of any system, and ITF or TLC JSON files of any spec, are
 * all saved as this: the spec's variables (`vars`) and, per step, the action with its parameters and
 * the state as ITF values (the TLA+ view, what `tracecheck` and other tools read), so `fencecheck
 * trace show|export` read every system's trace without knowing it. `system` is the model's name
 * (the registry's names) or `tla` for a spec that is no system of the project.
 *
 * `fencecheck.trace/1` files (a system's states in its own form, or `system: "tla"` ITF states) are
 * still read: src/trace/load.ts converts them.
 */
import type { ItfValue } from './itf-value.js';

export const TRACE_SCHEMA = 'fencecheck.trace/2' as const;
/** The previous format, read and converted (never written). */
export const TRACE_SCHEMA_V1 = 'fencecheck.trace/1' as const;

/** The system of a trace whose spec is none of the project's (any `tlc --spec`, a foreign ITF file). */
export const FOREIGN_SYSTEM = 'tla';

/**
 * Which layer produced the trace: `tlc`, `model` (a twin's exploration), `props` (fast-check runs),
 * `conform` / `tour` (the exhaustive tour of the real code), `walk` (sampled walks),
 * `drill` (drills of the real code), `itf` (imported from an ITF file).
 */
export const TRACE_SOURCES = ['tlc', 'model', 'props', 'conform', 'tour', 'walk', 'drill', 'itf'] as const;
export type TraceSource = (typeof TRACE_SOURCES)[number];

/**
 * A patch file as a trace records it: where it is (repository-relative when inside the checkout,
 * else absolute) and the SHA-256 of its bytes, so a replay applies exactly the patch that produced
 * the trace and refuses a file changed since.
 */
export interface TracePatch {
  readonly path: string;
  readonly sha256: string;
}

/** An action instance: its TLA+ name and its parameters (named as the spec names them, else `arg0`, `arg1`, …). */
export interface TraceAction {
  readonly action: string;
  readonly params: Readonly<Record<string, ItfValue>>;
}

/** One step: the action that produced `state` (the first step is `Init`, with no parameters). */
export interface Step extends TraceAction {
  /** The state after the step: each of the trace's `vars` → its ITF value. */
  readonly state: Readonly<Record<string, ItfValue>>;
  /** The invariants of the system's model this state breaks, as judged when the trace was written (absent: not judged). */
  readonly broken?: readonly string[];
  /** What a layer saw at this step (the real system's reply, a decision), free-form. */
  readonly observed?: Readonly<Record<string, unknown>>;
  /** One line about the step (why an attempt was refused, what was inferred). */
  readonly note?: string;
}

/**
 * A lasso's closing step: from the last state back to `steps[loop]` (TLC's "Back to state", ITF's
 * `loop`). `Stuttering` when the behaviour stays in its last state forever.
 */
export type LoopAction = TraceAction;

/** Where an imported trace came from, and what the import had to work out itself. */
export interface TraceImport {
  /** `tlc-json` (TLC's -dumpTrace json), `itf`, or `trace/1` (an older fencecheck trace, converted). */
  readonly format: 'tlc-json' | 'itf' | 'trace/1';
  readonly file?: string;
  /** E.g. "actions of step(s) 3, 4 inferred from the state changes with the <system> model's twin". */
  readonly notes: readonly string[];
}

/** What an ITF file carries beyond the states, kept through import so that export writes it back. */
export interface ItfExtras {
  /** ITF `params` (the constants): each name with the value the file's first state gives it. */
  readonly params?: Readonly<Record<string, ItfValue>>;
  /** The file's own `#meta` (`varTypes`, `description`, `status`, …), apart from what an export writes itself. */
  readonly meta?: Readonly<Record<string, unknown>>;
  /** Apalache's typed model values the import took the suffix off: `p1` → `POD` for `p1_OF_POD`. */
  readonly types?: Readonly<Record<string, string>>;
}

export interface Trace {
  readonly schema: typeof TRACE_SCHEMA;
  readonly system: string;
  readonly source: TraceSource;
  /** The spec (repository path for a system's, the module file for a foreign one), when known. */
  readonly spec?: string;
  /** The spec's variables in the order to show them (a file's extra variables, e.g. Quint's, after them). */
  readonly vars: readonly string[];
  /** The constants the trace was made with (the system's own form, JSON), when known. */
  readonly bounds?: unknown;
  /** Mutant id from mutants/manifest.json when the trace was produced under a mutant. */
  readonly mutant?: string;
  /** The implementation patch file the trace was produced under (a user's `--patch FILE`, or a mutant's): replay applies it. */
  readonly patch?: TracePatch;
  /** The invariant (or property) whose violation ends the trace, if any. */
  readonly violated?: string;
  /** Every invariant the last state breaks. */
  readonly brokenAtEnd?: readonly string[];
  /** fast-check replay data. */
  readonly seed?: number;
  readonly path?: string;
  readonly steps: readonly Step[];
  /** Lasso: the index of the state the closing step returns to (`loopAction` is that step). */
  readonly loop?: number;
  readonly loopAction?: LoopAction;
  readonly imported?: TraceImport;
  /** From an ITF file: its params, #meta and model value types, for a lossless export. */
  readonly itf?: ItfExtras;
}

/**
 * A step whose state is still in its system's own form (the twin's S), before the system's `toTla`:
 * what a system's own conformance tour still builds. Saving it converts it
 * (src/seam/trace.ts traceOfStates); nothing reads it from a file.
 */
export interface ModelStep {
  readonly action: string;
  readonly params: Readonly<Record<string, string | number>>;
  readonly state: unknown;
  readonly observed?: Readonly<Record<string, unknown>>;
}

/** A trace whose states are in the system's own form (see ModelStep); it has no `vars`. */
export interface ModelTrace {
  readonly schema: typeof TRACE_SCHEMA | typeof TRACE_SCHEMA_V1;
  readonly system: string;
  readonly source: TraceSource;
  readonly bounds?: unknown;
  readonly mutant?: string;
  readonly patch?: TracePatch;
  readonly violated?: string;
  readonly brokenAtEnd?: readonly string[];
  readonly seed?: number;
  readonly path?: string;
  readonly steps: readonly TraceStep[];
  readonly loop?: number;
  readonly loopAction?: { readonly action: string; readonly params: Readonly<Record<string, string | number>> };
}

/** Either kind of step (the renderers take both; a ModelStep's state is shown only once converted). */
export type TraceStep = Step | ModelStep;

/** What the renderers take: a trace, or a ModelTrace not yet saved (read structurally). */
export type TraceLike = Trace | ModelTrace;

/**
 * Names kept for code written against `fencecheck.trace/1` (the conformance tour),
 * to go when they move to the names above: a trace of any system is a Trace.
 */
export type AnyTrace = Trace;
export type TlaTrace = Trace;
export type TlaTraceStep = Step;

/** Whether a trace is in /2's form (its states ITF values of `vars`), not a ModelTrace. */
export function isTrace(t: TraceLike): t is Trace {
  return Array.isArray((t as { vars?: unknown }).vars) && t.schema === TRACE_SCHEMA;
}

/** The system a model's name belongs to: `<system>/<mutant>` (a mutated twin) is `<system>`'s. */
export function baseSystemName(name: string): string {
  return name.split('/')[0]!;
}
