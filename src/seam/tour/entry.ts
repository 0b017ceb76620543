/**
 * A system's tour as the registry offers it (SystemEntry.tour): what `fencecheck conform --system
 * NAME`, verify's conform stage and a system's impl runner call, without knowing the system. The
 * system turns the model's bounds into its rig, loads a mutant's patch, runs the engine
 * (src/seam/tour/tour.ts) and saves the counterexample trace; the command prints and reports.
 */
import type { MutantEntry } from '../../core/manifest.js';
import type { TracePatch } from '../../core/trace-format.js';
import type { TourOptions } from './tour.js';
import { EVERY_INVARIANT, type TourFailure, type TourResult } from './result.js';
import type { Shard } from './shard.js';
import type { TourModel } from './system.js';

/** Re-exported where the tours' entries find the rest of their contract. */
export { EVERY_INVARIANT };

export interface SystemTourOptions {
  /** The model's bounds (ModelSystem.bounds, after any --const): the system reads its own from them. */
  readonly bounds: unknown;
  /** An impl-layer manifest entry: the tour runs its patch (and, unless `invariant` says otherwise, checks its expected invariant alone). */
  readonly mutant?: MutantEntry;
  /**
   * A user's own patch file (`conform --patch FILE`, already hashed): the tour loads it as the
   * system's patch type (TourSetupError when it is none) and its trace records it. With no
   * `invariant`, every invariant is checked in invariant mode (EVERY_INVARIANT).
   */
  readonly patch?: TracePatch;
  /** Check this invariant alone (with the type invariant) instead of full conformance; EVERY_INVARIANT: all of them, following the real graph. */
  readonly invariant?: string;
  /** Conformance only: this shard's states. */
  readonly shard?: Shard;
  /** With an invariant alone: the unpatched graph's digest (is the mutant's graph the same?). */
  readonly baseline?: string;
  readonly concurrency?: number;
  /** Where the real system's servers come from (auto, native, testcontainers, external). */
  readonly provider?: string;
  readonly onProgress?: TourOptions['onProgress'];
  /** Save the counterexample trace (default true). */
  readonly saveTrace?: boolean;
}

export interface SystemTourRun {
  readonly result: TourResult<unknown, unknown, unknown>;
  /** How the path's attempts are named (the report's path lines). */
  readonly model: Pick<TourModel<unknown, unknown, unknown>, 'attemptLabel' | 'view'>;
  readonly tracePath?: string;
  /** The one command that replays the counterexample. */
  readonly replay?: string;
}

export interface SystemTour {
  /** What the tour runs, for the command's first line (`real scripts, gate and door on real Valkey`). */
  readonly what: string;
  /** The invariants `--invariant` may name (the type invariant included). */
  readonly invariants: readonly string[];
  /** What its patch files default-export, for messages (`ImplPatch { lua?, dropGateRules?, … }`); absent: it takes no `--patch`. */
  readonly patchType?: string;
  /** Whether a module's default export is a patch of this system (how `--patch FILE` finds its system); absent: it takes no `--patch`. */
  isPatch?(x: unknown): boolean;
  /**
   * The constants verify's tour uses (`conform --gate`), when the whole graph at the spec's base
   * config takes minutes: a stated bound, beside the full tour `conform --system NAME` runs. Absent:
   * the gate tours the base config.
   */
  readonly gateConstants?: Readonly<Record<string, string>>;
  /**
   * The constants `conform` tours with no `--const` and no `--gate`, when the spec's base config is
   * beyond what the tour maps (said in the command's first line, which prints the bounds). Absent:
   * the base config.
   */
  readonly defaultConstants?: Readonly<Record<string, string>>;
  /**
   * One tour. Throws TourSetupError for a mutant whose patch cannot be loaded (bad input) and
   * TourUnavailableError when the real system cannot be started (not run); anything else is a fault.
   */
  run(opts: SystemTourOptions): Promise<SystemTourRun>;
}

/**
 * A tour that cannot be run as asked — a mutant's patch that cannot be loaded or applied, a bound out
 * of range, an unknown invariant —: bad input, never a verdict. The engine's own class, so what the
 * engine refuses (a shard in invariant mode) is bad input too.
 */
export { TourSetupError } from './tour.js';

/** The real system could not be started (no Valkey, a port refused): the tour did not run. */
export class TourUnavailableError extends Error {
  override readonly name = 'TourUnavailableError';
}

const everyModels = new WeakMap<object, TourModel<unknown, unknown, unknown>>();

/**
 * The model with one more invariant, EVERY_INVARIANT, the conjunction of all of them (the engine
 * watches one invariant besides the type invariant). Kept per model: the engine caches its graph
 * by the model object.
 */
export function everyInvariantModel<S, A, D>(model: TourModel<S, A, D>): TourModel<S, A, D> {
  const hit = everyModels.get(model);
  if (hit) return hit as unknown as TourModel<S, A, D>;
  const names = Object.keys(model.invariants);
  const every = (s: S) => names.every((n) => model.invariants[n]!(s));
  const m: TourModel<S, A, D> = { ...model, invariants: { ...model.invariants, [EVERY_INVARIANT]: every } };
  everyModels.set(model, m as unknown as TourModel<unknown, unknown, unknown>);
  return m;
}

/** A failure of EVERY_INVARIANT named by the model's invariants its state really breaks (the first one as `check`). */
export function namedEveryFailure<S, A, D>(model: TourModel<S, A, D>, f: TourFailure<S, A, D>): TourFailure<S, A, D> {
  if (f.check !== EVERY_INVARIANT) return f;
  const last = f.path[f.path.length - 1]!.state;
  const broken = Object.keys(model.invariants).filter((n) => n !== EVERY_INVARIANT && !model.invariants[n]!(last));
  return { ...f, check: broken[0] ?? EVERY_INVARIANT, message: `${broken.join(', ')} violated in the real state` };
}
