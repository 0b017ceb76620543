/**
 * The pause snapshot's replay: a tour's trace whose finding is no invariant (Conformance, an
 * Observation) replays with the tour's judgement (src/seam/tour/replay-path.ts) — each step the
 * tour's attempt on one instance walked from Init, its decision and the state read back against the
 * model's prediction —; every other trace through the replay of tour/replay.ts, as before.
 */
import { tlaToItf, type ItfValue } from '../../core/itf-value.js';
import { projectRoot } from '../../core/project-root.js';
import type { Trace } from '../../core/trace-format.js';
import { loadPatchModule } from '../../seam/patch-file.js';
import { ReplayInputError, ReplayUnavailableError, type ReplayOpenOptions, type ReplaySession } from '../../seam/replay.js';
import { tourPathSession, withTourJudgement } from '../../seam/tour/replay-path.js';
import { ValkeyUnavailableError } from '../../valkey/index.js';
import { isProviderChoice } from '../../valkey/start.js';
import { PAUSE_INVARIANT_NAMES } from '../../../models/pause/index.js';
import { PAUSE_VARIABLES } from './model-state.js';
import { isPausePatch, loadPausePatch, PAUSE_PATCH_TYPE, type PausePatch } from './patch.js';
import { pauseStateToTla } from './system.js';
import { pauseTourBounds } from './tour/entry.js';
import { attemptOfStep, pauseReplayer } from './tour/replay.js';
import { openPauseTourRig } from './tour/rig.js';
import { pauseTourSystem } from './tour/system.js';

/** The trace's recorded patch file (checked by the caller), else its mutant's manifest patch. */
async function patchOf(trace: Trace, opts: ReplayOpenOptions): Promise<{ path: string; patch: PausePatch } | undefined> {
  if (opts.patchFile !== undefined) {
    try {
      return { path: trace.patch?.path ?? opts.patchFile, patch: await loadPatchModule(opts.patchFile, isPausePatch, PAUSE_PATCH_TYPE) };
    } catch (err) {
      throw new ReplayInputError((err as Error).message);
    }
  }
  if (trace.mutant === undefined) return undefined;
  const path = opts.mutant?.layers.impl?.patch;
  if (!path) throw new ReplayUnavailableError(`mutant ${trace.mutant} has no implementation-layer patch in the manifest`);
  try {
    return { path, patch: await loadPausePatch(path, projectRoot) };
  } catch (err) {
    throw new ReplayUnavailableError((err as Error).message);
  }
}

async function openJudged(trace: Trace, opts: ReplayOpenOptions): Promise<ReplaySession> {
  const bounds = pauseTourBounds(trace.bounds);
  const patch = await patchOf(trace, opts);
  let rig;
  try {
    rig = await openPauseTourRig(opts.provider !== undefined && isProviderChoice(opts.provider) ? { provider: opts.provider } : {});
  } catch (err) {
    if (err instanceof ValkeyUnavailableError) throw new ReplayUnavailableError(err.message);
    throw err;
  }
  const system = pauseTourSystem({ rig, bounds, ...(patch ? { patch: patch.patch } : {}) });
  return tourPathSession({
    system,
    attemptOf: (step, index) => attemptOfStep(step, `steps[${index}]`, bounds),
    toItf: (s): Readonly<Record<string, ItfValue>> => {
      const tla = pauseStateToTla(s.model);
      return Object.fromEntries(PAUSE_VARIABLES.map((v) => [v, tlaToItf(tla[v])]));
    },
    judge: 'tour',
    where: `as the tour walks it, one instance from Init: an owned standalone Valkey (${rig.topology.provider}), the tour's replicas and clock`,
    ...(patch ? { patch: patch.path } : {}),
    close: () => rig.close(),
  });
}

export const pauseJudgedReplayer = withTourJudgement(pauseReplayer, PAUSE_INVARIANT_NAMES, openJudged);
