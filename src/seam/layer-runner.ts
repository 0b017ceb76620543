import type { Layer, MutantEntry } from '../core/manifest.js';
import type { MutantResult } from '../core/verdict.js';
import type { StageReport } from '../core/stage-report.js';
import type { Shard } from './tour/shard.js';

export interface LayerRunOptions {
  /** Only these mutant ids (default: every mutant the manifest lists for the layer). */
  readonly only?: readonly string[];
  /** Seed for property layers. */
  readonly seed?: number;
  /** Number of runs for property layers. */
  readonly numRuns?: number;
  /** Where to save counterexample traces (default reports/traces). */
  readonly traceDir?: string;
  /** Progress lines for humans; runners write nothing else to stdout. */
  readonly log?: (line: string) => void;
  /** Work done of the whole layer's run (a progress meter's input): `done` of `total` units, what runs now. */
  readonly onProgress?: (done: number, total: number, unit: string, note?: string) => void;
  /**
   * A shard of the layer (`mutants --layer impl --shard i/n`): the caller has kept the shard's
   * entries; a runner whose unpatched run is a sharded tour runs that shard of it.
   */
  readonly shard?: Shard;
  /**
   * The unpatched run's own report, for a stage it equals (the impl layer's unpatched tour is the
   * conform stage's tour: verify shows it as that stage instead of running the tour twice).
   */
  readonly onBaseReport?: (stage: string, system: string, report: StageReport) => void;
  /**
   * The tour's constants for a user's patch judged on its system's tour (`mutants --patch FILE
   * --const K=V`); default: the tour's default bound.
   */
  readonly constants?: Readonly<Record<string, string>>;
}

/** Applies each mutant to one layer and reports what the layer's ordinary checkers made of it. */
export interface LayerRunner {
  readonly layer: Layer;
  /** Null when the layer can run here; otherwise the reason every result will be not-run. */
  unavailable(): Promise<string | null>;
  run(mutants: readonly MutantEntry[], options: LayerRunOptions): Promise<MutantResult[]>;
}
