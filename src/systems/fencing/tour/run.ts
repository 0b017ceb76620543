/**
 * One conformance tour from start to end: the topologies, the tour, the counterexample trace.
 * Used by `fencecheck conform`, the impl mutant layer, verify and the benchmark.
 */
import type { InvariantName } from '../invariants.js';
import type { ImplPatch } from '../patch.js';
import type { FencingBounds } from '../state.js';
import { saveTrace } from '../model/trace.js';
import type { StartOptions } from '../../../valkey/start.js';
import { modelTour } from './model-graph.js';
import { tourPathToTrace } from './trace.js';
import { runTour, type TourChecks, type TourOptions, type TourResult } from './tour.js';
import { openTourWorld, type TourWorld } from './world.js';

export interface ConformOptions {
  readonly bounds: FencingBounds;
  readonly patch?: ImplPatch;
  /** Check this invariant alone (the impl mutant layer); default: conformance and every check. */
  readonly invariant?: InvariantName;
  readonly mutant?: string;
  readonly concurrency?: number;
  readonly start?: StartOptions;
  /** Reuse topologies (several tours in one process). */
  readonly world?: TourWorld;
  readonly log?: (line: string) => void;
  readonly onProgress?: TourOptions['onProgress'];
  /** Save the counterexample under reports/traces/ (default true). */
  readonly saveTrace?: boolean;
}

export interface ConformRun {
  readonly result: TourResult;
  readonly tracePath?: string;
  readonly replay?: string;
}

export async function runConform(opts: ConformOptions): Promise<ConformRun> {
  // The model's graph first (seconds of synchronous work, cached): computed while no server runs, a
  // signal meanwhile ends the process at once; with servers live it would wait for the graph.
  if (!opts.world) modelTour(opts.bounds);
  const world = opts.world ?? (await openTourWorld(opts.start ?? {}));
  try {
    const checks: TourChecks = opts.invariant ? { kind: 'invariant', invariant: opts.invariant } : { kind: 'conformance' };
    const result = await runTour({
      world,
      bounds: opts.bounds,
      checks,
      ...(opts.patch ? { patch: opts.patch } : {}),
      ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
      ...(opts.log ? { log: opts.log } : {}),
      ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
    });
    if (!result.failure || opts.saveTrace === false) return { result };
    const trace = tourPathToTrace(result.failure.path, { bounds: opts.bounds, violated: result.failure.check, ...(opts.mutant ? { mutant: opts.mutant } : {}) });
    const name = `conform-${opts.mutant ? `${opts.mutant}-` : ''}${result.failure.check}.json`;
    const tracePath = saveTrace(trace, name);
    return { result, tracePath, replay: `fencecheck trace replay ${tracePath}` };
  } finally {
    if (!opts.world) await world.close();
  }
}
