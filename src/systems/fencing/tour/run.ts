/**
 * One fencing tour from start to end: the rig, the tour on the seam's engine, the counterexample
 * trace. Used by `fencecheck conform`, the impl mutant layer, verify (through conform) and the
 * benchmark.
 */
import type { InvariantName } from '../invariants.js';
import type { ImplPatch } from '../patch.js';
import type { FencingBounds, FencingState } from '../state.js';
import { saveTrace } from '../model/trace.js';
import type { StartOptions } from '../../../valkey/start.js';
import { runTour, type TourOptions } from '../../../seam/tour/tour.js';
import type { TourResult } from '../../../seam/tour/result.js';
import type { Shard } from '../../../seam/tour/shard.js';
import type { TracePatch } from '../../../core/trace-format.js';
import { EVERY_INVARIANT, everyInvariantModel, namedEveryFailure } from '../../../seam/tour/entry.js';
import { engineOptions, traceFileName } from '../../../seam/tour/entry-kit.js';
import type { Attempt, Decision } from './attempts.js';
import { modelGraphYielding } from '../../../seam/tour/model-graph.js';
import { fencingTourModel, fencingTourSystem, type FencingTourSystem } from './system.js';
import { tourPathToTrace } from './trace.js';
import { openTourRig, type TourRig } from './rig.js';

export type FencingTourResult = TourResult<FencingState, Attempt, Decision>;

export interface ConformOptions {
  readonly bounds: FencingBounds;
  readonly patch?: ImplPatch;
  /** Check this invariant alone (the impl mutant layer), or EVERY_INVARIANT (a user's patch); default: conformance and every check. */
  readonly invariant?: InvariantName | typeof EVERY_INVARIANT;
  readonly mutant?: string;
  /** The patch file `patch` was loaded from: the counterexample trace records it (replay applies it). */
  readonly patchFile?: TracePatch;
  /** Conformance only: this shard's states. */
  readonly shard?: Shard;
  /** With an invariant alone: the unpatched graph's digest (is the mutant's graph the same?). */
  readonly baseline?: string;
  readonly concurrency?: number;
  readonly start?: StartOptions;
  /** Reuse topologies (several tours in one process). */
  readonly rig?: TourRig;
  readonly onProgress?: TourOptions['onProgress'];
  /** Save the counterexample under reports/traces/ (default true). */
  readonly saveTrace?: boolean;
}

export interface ConformRun {
  readonly result: FencingTourResult;
  /** The system the tour ran (its model renders the path). */
  readonly system: FencingTourSystem;
  readonly tracePath?: string;
  readonly replay?: string;
}

export async function runConform(opts: ConformOptions): Promise<ConformRun> {
  // The model's graph first (seconds of work, cached), before any server runs, in slices a signal
  // can come between: with the end handlers installed a synchronous graph held a signal seconds.
  const every = opts.invariant === EVERY_INVARIANT;
  if (!opts.rig) await modelGraphYielding(every ? everyInvariantModel(fencingTourModel(opts.bounds)) : fencingTourModel(opts.bounds));
  const rig = opts.rig ?? (await openTourRig(opts.start ?? {}));
  try {
    const base = fencingTourSystem({ rig, bounds: opts.bounds, ...(opts.patch ? { patch: opts.patch } : {}) });
    // Every invariant at once: the model with their conjunction as one more (see everyInvariantModel).
    const system: FencingTourSystem = every ? { ...base, model: everyInvariantModel(base.model) } : base;
    const ran = await runTour(system, engineOptions(opts, opts.invariant));
    const result = every && ran.failure ? { ...ran, failure: namedEveryFailure(base.model, ran.failure) } : ran;
    if (!result.failure || opts.saveTrace === false) return { result, system: base };
    const trace = tourPathToTrace(result.failure.path, {
      bounds: opts.bounds,
      violated: result.failure.check,
      ...(opts.mutant ? { mutant: opts.mutant } : {}),
      ...(opts.patchFile ? { patch: opts.patchFile } : {}),
    });
    const name = traceFileName(`conform-${opts.mutant ? `${opts.mutant}-` : opts.patchFile ? `patch-${patchLabel(opts.patchFile)}-` : ''}`, result, result.failure.check);
    const tracePath = saveTrace(trace, name);
    return { result, system: base, tracePath, replay: `fencecheck trace replay ${tracePath}` };
  } finally {
    if (!opts.rig) await rig.close();
  }
}

/** A patch file's name for a trace file name: its base name, safe characters only. */
function patchLabel(p: TracePatch): string {
  const base = p.path
    .split(/[\\/]/)
    .pop()!
    .replace(/\.[cm]?[jt]s$/, '');
  return base.replace(/[^A-Za-z0-9_-]+/g, '_') || 'patch';
}
