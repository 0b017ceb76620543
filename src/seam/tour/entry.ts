/**
 * A system's tour as the registry offers it (SystemEntry.tour): what `fencecheck conform --system
 * NAME`, verify's conform stage and a system's impl runner call, without knowing the system. The
 * system turns the model's bounds into its rig, loads a mutant's patch, runs the engine
 * (src/seam/tour/tour.ts) and saves the counterexample trace; the command prints and reports.
 */
import type { MutantEntry } from '../../core/manifest.js';
import type { TourOptions } from './tour.js';
import type { TourResult } from './result.js';
import type { Shard } from './shard.js';
import type { TourModel } from './system.js';

export interface SystemTourOptions {
  /** The model's bounds (ModelSystem.bounds, after any --const): the system reads its own from them. */
  readonly bounds: unknown;
  /** An impl-layer manifest entry: the tour runs its patch (and, unless `invariant` says otherwise, checks its expected invariant alone). */
  readonly mutant?: MutantEntry;
  /** Check this invariant alone (with the type invariant) instead of full conformance. */
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
  /**
   * One tour. Throws TourSetupError for a mutant whose patch cannot be loaded (bad input) and
   * TourUnavailableError when the real system cannot be started (not run); anything else is a fault.
   */
  run(opts: SystemTourOptions): Promise<SystemTourRun>;
}

/** A mutant's patch that cannot be loaded or applied: bad input, never a verdict. */
export class TourSetupError extends Error {
  override readonly name = 'TourSetupError';
}

/** The real system could not be started (no Valkey, a port refused): the tour did not run. */
export class TourUnavailableError extends Error {
  override readonly name = 'TourUnavailableError';
}
