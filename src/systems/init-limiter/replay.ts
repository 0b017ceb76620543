/**
 * The init limiter's replay (src/seam/replay.ts): a trace's steps run as the tour's attempts on one
 * tour instance walked from Init (the reference server over real HTTP, the tour's clients and
 * clock). A tour's trace whose finding is no invariant (Conformance, what a client received, the
 * limiter's counters) is judged as the tour judged it (src/seam/tour/replay-path.ts); every other
 * trace by the invariants on the real state. A trace made under a mutant or a recorded patch file
 * runs with that patch. Each step is the model event whose action and parameters are the step's.
 */
import { projectRoot } from '../../core/project-root.js';
import type { Step, Trace } from '../../core/trace-format.js';
import { loadPatchModule } from '../../seam/patch-file.js';
import { ReplayInputError, ReplayUnavailableError, type ReplayOpenOptions, type ReplaySession, type TraceReplayer } from '../../seam/replay.js';
import { TourSetupError } from '../../seam/tour/entry.js';
import { attemptByRendering, replayJudgement, tourPathSession } from '../../seam/tour/replay-path.js';
import { actionOfLabel, stateFromItf, stateToItf } from '../../seam/trace.js';
import { INIT_LIMITER_INVARIANT_NAMES, initLimiterEventLabel } from '../../../models/init-limiter/index.js';
import type { InitLimiterBounds, InitLimiterModelState } from './model-state.js';
import { loadInitLimiterPatch, type InitLimiterPatch } from './server/index.js';
import { INIT_LIMITER_PARAM_NAMES, initLimiterSystem } from './system.js';
import { INIT_LIMITER_PATCH_TYPE, initLimiterTourBounds, isInitLimiterPatch, unmappable } from './tour/entry.js';
import { initLimiterTourModel, type InitLimiterAttempt } from './tour/model.js';
import { initLimiterTourSystem } from './tour/system.js';

function boundsOf(trace: Trace): InitLimiterBounds {
  try {
    return initLimiterTourBounds(trace.bounds);
  } catch (err) {
    if (err instanceof TourSetupError) throw new ReplayInputError(err.message);
    throw err;
  }
}

const render = (e: InitLimiterAttempt) => actionOfLabel(initLimiterEventLabel(e), INIT_LIMITER_PARAM_NAMES);

/** The model event of a step, among the attempts of the state before it. */
function attemptOf(bounds: InitLimiterBounds, step: Step, index: number, prev: InitLimiterModelState): InitLimiterAttempt {
  const attempts = initLimiterTourModel(bounds).attempts(prev);
  const a = attemptByRendering(attempts, render, step);
  if (a === undefined) throw new ReplayInputError(`steps[${index}]: ${step.action} is no attempt of the tour in the state before it`);
  return a;
}

async function patchOf(trace: Trace, opts: ReplayOpenOptions): Promise<{ path: string; patch: InitLimiterPatch } | undefined> {
  if (opts.patchFile !== undefined) {
    try {
      return { path: trace.patch?.path ?? opts.patchFile, patch: await loadPatchModule(opts.patchFile, isInitLimiterPatch, INIT_LIMITER_PATCH_TYPE) };
    } catch (err) {
      throw new ReplayInputError((err as Error).message);
    }
  }
  if (trace.mutant === undefined) return undefined;
  if (!opts.mutant) throw new ReplayUnavailableError(`mutant ${trace.mutant} is not in mutants/manifest.json`);
  const path = opts.mutant.layers.impl?.patch;
  if (!path) throw new ReplayUnavailableError(`mutant ${trace.mutant} has no implementation-layer patch in the manifest`);
  try {
    return { path, patch: await loadInitLimiterPatch(path, projectRoot) };
  } catch (err) {
    throw new ReplayUnavailableError((err as Error).message);
  }
}

export const initLimiterReplayer: TraceReplayer = {
  check(trace) {
    const bounds = boundsOf(trace);
    const sys = initLimiterSystem(bounds);
    // Every step is an attempt of the state the trace says it is made in (before any server starts).
    trace.steps.forEach((step, i) => void (i > 0 && attemptOf(bounds, step, i, stateFromItf(sys, trace.steps[i - 1]!.state))));
  },
  async open(trace, opts): Promise<ReplaySession> {
    const bounds = boundsOf(trace);
    const why = unmappable(bounds);
    if (why !== null)
      throw new ReplayUnavailableError(`the replay runs on the ${why.replace(/^the init-limiter tour maps/, "init-limiter tour's real side, which maps").replace(/ — run conform .*$/, '')}`);
    const patch = await patchOf(trace, opts);
    const sys = initLimiterSystem(bounds);
    const judge = replayJudgement(trace, INIT_LIMITER_INVARIANT_NAMES);
    return tourPathSession({
      system: initLimiterTourSystem({ bounds, ...(patch ? { patch: patch.patch } : {}) }),
      attemptOf: (step, index, prev) => attemptOf(bounds, step, index, prev),
      toItf: (s) => stateToItf(sys, s),
      judge,
      where: `${judge === 'tour' ? 'as the tour walks it, ' : ''}one instance from Init: the reference server over real HTTP, the tour's clients and clock`,
      ...(patch ? { patch: patch.path } : {}),
      close: async () => {},
    });
  },
};
