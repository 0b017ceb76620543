/**
 * The pause snapshot's tour as the registry offers it (src/seam/tour/entry.ts): the model's bounds,
 * a mutant's impl patch loaded, a rig on one owned Valkey, the engine's tour (replayed runs of a path
 * cover in conformance mode, the real graph breadth-first for one invariant), the close() findings
 * of the instances, and the counterexample saved as a trace.
 */
import { projectRoot } from '../../../core/project-root.js';
import { TourSetupError, TourUnavailableError, type SystemTour, type SystemTourOptions, type SystemTourRun } from '../../../seam/tour/entry.js';
import { asSystemTourRun, engineOptions, invariantToCheck, mutantPatch, namedResult, systemFor, tourBounds, traceFileName, userPatch } from '../../../seam/tour/entry-kit.js';
import { modelGraphYielding } from '../../../seam/tour/model-graph.js';
import type { TourResult } from '../../../seam/tour/result.js';
import { runTour } from '../../../seam/tour/tour.js';
import { saveTrace } from '../../../seam/trace.js';
import { ValkeyUnavailableError } from '../../../valkey/errors.js';
import { isProviderChoice } from '../../../valkey/start.js';
import { PAUSE_BASE_BOUNDS, type PauseBounds } from '../model-state.js';
import { isPausePatch, loadPausePatch, PAUSE_PATCH_TYPE, type PausePatch } from '../patch.js';
import { pauseBounds, pauseConstants } from '../system.js';
import { PAUSE_INVARIANT_NAMES } from '../../../../models/pause/index.js';
import { pauseTourModel, type PauseAttempt, type PauseDecision, type PauseTourState } from './model.js';
import { openPauseTourRig } from './rig.js';
import { pauseTourSystem } from './system.js';
import { pauseTourTrace } from './trace.js';
import { runPauseWidthPasses } from './widths.js';

export type PauseTourResult = TourResult<PauseTourState, PauseAttempt, PauseDecision>;

/** The bounds a tour was given (the model system's, after --const), checked. */
export function pauseTourBounds(b: unknown): PauseBounds {
  return tourBounds(b, PAUSE_BASE_BOUNDS, pauseBounds);
}

export async function runPauseTour(opts: SystemTourOptions): Promise<{ result: PauseTourResult; tracePath?: string; replay?: string }> {
  const bounds = pauseTourBounds(opts.bounds);
  if (bounds.maxAge !== 0) throw new TourSetupError(`the pause tour's clock stands for MaxAge = 0 (one Tick ages a snapshot past the bound); got MaxAge = ${bounds.maxAge}`);
  // A user's patch (`--patch FILE`) or a mutant's; a user's gets the whole tour unless an invariant is named.
  const patch: PausePatch | undefined = (await userPatch(opts.patch, isPausePatch, PAUSE_PATCH_TYPE)) ?? (await mutantPatch(opts.mutant, (file) => loadPausePatch(file, projectRoot)));
  const invariant = invariantToCheck('pause', PAUSE_INVARIANT_NAMES, opts);
  // The model's graph first, in slices a signal can come between (another system's servers may have
  // installed the end handlers already: a signal waits for the running slice, not for the graph).
  await modelGraphYielding(pauseTourModel(bounds));
  const provider = opts.provider !== undefined && isProviderChoice(opts.provider) ? opts.provider : undefined;
  let rig;
  try {
    rig = await openPauseTourRig(provider ? { provider } : {});
  } catch (err) {
    if (err instanceof ValkeyUnavailableError) throw new TourUnavailableError(err.message);
    throw err;
  }
  try {
    const system = pauseTourSystem({ rig, bounds, ...(patch ? { patch } : {}) });
    let result: PauseTourResult = namedResult(system.model, await runTour(systemFor(system, invariant), engineOptions(opts, invariant)));
    // close() is judged as every instance ends (dispose); the first finding fails a run that found nothing else.
    if (result.failure === null && rig.closeFindings.length > 0 && invariant === undefined) {
      const init = system.model.initialStates()[0]!;
      result = {
        ...result,
        failure: {
          check: 'Close',
          message: `${rig.closeFindings[0]!}${rig.closeFindings.length > 1 ? ` (and ${rig.closeFindings.length - 1} more)` : ''}`,
          path: [{ attempt: null, decision: null, state: init }],
        },
        digest: null,
        equalToModel: null,
      };
    }
    // The version-width passes (tour/widths.ts) after a whole tour that held: the same graph from versions
    // of other widths, at this bound or verify's, whichever is smaller. A shard is one part of one pass.
    if (result.failure === null && result.shard.count === 1) {
      const widthBounds = bounds.maxCalls <= 1 || bounds.replicas.length < 2 ? bounds : pauseConstants(PAUSE_BASE_BOUNDS, PAUSE_GATE_CONSTANTS);
      const engine = engineOptions(opts, invariant);
      const passes = await runPauseWidthPasses(rig, { bounds: widthBounds, ...(patch ? { patch } : {}), checks: engine.checks, ...(invariant !== undefined ? { invariant } : {}) });
      const failed = passes.find((p) => p.result.failure !== null);
      // Its path is the model's from version 0: a trace of it would replay at the main tour's versions, so none is saved.
      if (failed)
        return {
          result: {
            ...result,
            failure: { ...failed.result.failure!, message: `in the version-width pass ${failed.name} (versions from ${failed.base}): ${failed.result.failure!.message}` },
            digest: null,
            equalToModel: null,
            equalToBaseline: null,
            observed: null,
          },
        };
    }
    if (!result.failure || opts.saveTrace === false) return { result };
    // A user's patch is recorded (path and SHA-256): the replay applies it.
    const trace = {
      ...pauseTourTrace(result.failure.path, { bounds, violated: result.failure.check, ...(opts.mutant ? { mutant: opts.mutant.id } : {}) }),
      ...(opts.patch ? { patch: opts.patch } : {}),
    };
    const tracePath = saveTrace(trace, traceFileName(`conform-pause-${opts.mutant ? `${opts.mutant.id}-` : opts.patch ? 'patch-' : ''}`, result, result.failure.check));
    return { result, tracePath, replay: `fencecheck trace replay ${tracePath}` };
  } finally {
    await rig.close();
  }
}

/**
 * verify's bound: one SetPaused call (696 states, every interleaving of the two replicas' events, a
 * failed load, write and reconcile, a late reconcile reply, the timer and close(), in seconds). The
 * whole base config (15,268 states: two overlapping calls too) takes about two minutes on two cores:
 * `fencecheck conform --system pause`, and the impl layer's mutant tours, run it.
 */
export const PAUSE_GATE_CONSTANTS: Readonly<Record<string, string>> = { MaxCalls: '1' };

export const pauseTour: SystemTour = {
  what: "real replicas and SetPaused on real Valkey (replayed paths, the driver's clock)",
  invariants: PAUSE_INVARIANT_NAMES,
  gateConstants: PAUSE_GATE_CONSTANTS,
  patchType: PAUSE_PATCH_TYPE,
  isPatch: isPausePatch,
  async run(opts): Promise<SystemTourRun> {
    return asSystemTourRun(pauseTourModel(pauseTourBounds(opts.bounds)), await runPauseTour(opts));
  },
};
