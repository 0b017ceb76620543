/**
 * The pause snapshot's tour as the registry offers it (src/seam/tour/entry.ts): the model's bounds,
 * a mutant's impl patch loaded, a rig on one owned Valkey, the engine's tour (replayed runs of a path
 * cover in conformance mode, the real graph breadth-first for one invariant), the close() findings
 * of the instances, and the counterexample saved as a trace.
 */
import type { MutantEntry } from '../../../core/manifest.js';
import { projectRoot } from '../../../core/project-root.js';
import { TourSetupError, TourUnavailableError, type SystemTour, type SystemTourOptions, type SystemTourRun } from '../../../seam/tour/entry.js';
import { modelGraph } from '../../../seam/tour/model-graph.js';
import type { TourResult } from '../../../seam/tour/result.js';
import { runTour } from '../../../seam/tour/tour.js';
import { saveTrace } from '../../../seam/trace.js';
import { ValkeyUnavailableError } from '../../../valkey/errors.js';
import { isProviderChoice } from '../../../valkey/start.js';
import { PAUSE_BASE_BOUNDS, type PauseBounds } from '../model-state.js';
import { loadPausePatch, type PausePatch } from '../patch.js';
import { pauseBounds } from '../system.js';
import { PAUSE_INVARIANT_NAMES } from '../../../../models/pause/index.js';
import { pauseTourModel, type PauseAttempt, type PauseDecision, type PauseTourState } from './model.js';
import { openPauseTourRig } from './rig.js';
import { pauseTourSystem } from './system.js';
import { pauseTourTrace } from './trace.js';

export type PauseTourResult = TourResult<PauseTourState, PauseAttempt, PauseDecision>;

/** The bounds a tour was given (the model system's, after --const), checked. */
export function pauseTourBounds(b: unknown): PauseBounds {
  if (b === undefined) return PAUSE_BASE_BOUNDS;
  try {
    return pauseBounds(b);
  } catch (err) {
    if (err instanceof RangeError) throw new TourSetupError(err.message);
    throw err;
  }
}

async function patchOf(m: MutantEntry | undefined): Promise<PausePatch | undefined> {
  if (!m) return undefined;
  const file = m.layers.impl?.patch;
  if (!file) throw new TourSetupError(`${m.id} names no impl patch`);
  try {
    return await loadPausePatch(file, projectRoot);
  } catch (err) {
    throw new TourSetupError((err as Error).message);
  }
}

export async function runPauseTour(opts: SystemTourOptions): Promise<{ result: PauseTourResult; tracePath?: string; replay?: string }> {
  const bounds = pauseTourBounds(opts.bounds);
  if (bounds.maxAge !== 0) throw new TourSetupError(`the pause tour's clock stands for MaxAge = 0 (one Tick ages a snapshot past the bound); got MaxAge = ${bounds.maxAge}`);
  const patch = await patchOf(opts.mutant);
  const invariant = opts.invariant ?? opts.mutant?.expectedInvariant;
  if (invariant !== undefined && !(PAUSE_INVARIANT_NAMES as readonly string[]).includes(invariant))
    throw new TourSetupError(`pause has no invariant ${invariant} (${PAUSE_INVARIANT_NAMES.join(', ')})`);
  // The model's graph first (synchronous work): while no server runs, a signal ends the process at once.
  modelGraph(pauseTourModel(bounds));
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
    let result: PauseTourResult = await runTour(system, {
      checks: invariant ? { kind: 'invariant', invariant } : { kind: 'conformance' },
      ...(opts.shard ? { shard: opts.shard } : {}),
      ...(opts.baseline ? { baseline: opts.baseline } : {}),
      ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
      ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
    });
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
    if (!result.failure || opts.saveTrace === false) return { result };
    const trace = pauseTourTrace(result.failure.path, { bounds, violated: result.failure.check, ...(opts.mutant ? { mutant: opts.mutant.id } : {}) });
    const shard = result.shard.count > 1 ? `shard${result.shard.index}of${result.shard.count}-` : '';
    const tracePath = saveTrace(trace, `conform-pause-${opts.mutant ? `${opts.mutant.id}-` : ''}${shard}${result.failure.check}.json`);
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
  async run(opts): Promise<SystemTourRun> {
    const model = pauseTourModel(pauseTourBounds(opts.bounds));
    const run = await runPauseTour(opts);
    return {
      result: run.result as unknown as TourResult<unknown, unknown, unknown>,
      model: model as unknown as SystemTourRun['model'],
      ...(run.tracePath !== undefined ? { tracePath: run.tracePath } : {}),
      ...(run.replay !== undefined ? { replay: run.replay } : {}),
    };
  },
};
