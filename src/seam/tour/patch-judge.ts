/**
 * A user's patch judged on its system's tour: the unpatched code's full tour first (a kill means
 * something only when it passes the very same tour), then the patched code's full tour — every
 * check the tour makes, conformance included — and, with `safetyOnly` after a departure from the
 * model, the patched code's real graph with every invariant. The verdict is patchVerdict's. What
 * every command that takes `--patch` on a system with a tour calls; the command only prints.
 */
import type { TracePatch } from '../../core/trace-format.js';
import { EVERY_INVARIANT, TourSetupError, TourUnavailableError, type SystemTour, type SystemTourOptions, type SystemTourRun } from './entry.js';
import { isDeparture, patchVerdict, unpatchedFailure, type PatchVerdict } from './patch-verdict.js';

/** The patched code could not run the tour the unpatched code ran (a transform that throws, Lua that does not load): bad input. */
export class PatchRunError extends Error {
  override readonly name = 'PatchRunError';
}

export type PatchTourName = 'unpatched' | 'patched' | 'safety';

export interface PatchJudgeOptions {
  readonly tour: SystemTour;
  readonly patch: TracePatch;
  /** The model's bounds (after --const). */
  readonly bounds: unknown;
  /** One invariant alone instead of the whole judgement (`conform --patch --invariant NAME`). */
  readonly invariant?: string;
  /** A departure from the model is a verdict of its own when every invariant holds (`--safety-only`). */
  readonly safetyOnly?: boolean;
  readonly concurrency?: number;
  readonly provider?: string;
  /** Each tour's progress, by the tour's name. */
  readonly progress?: (tour: PatchTourName) => SystemTourOptions['onProgress'];
  /** Called once the unpatched tour is done (the command prints its line before the patched tour starts). */
  readonly onUnpatched?: (base: SystemTourRun) => void;
}

export interface PatchJudgement {
  readonly verdict: PatchVerdict;
  readonly base: SystemTourRun;
  /** The run whose result the verdict names (its trace and replay line); absent when unjudged. */
  readonly run?: SystemTourRun;
}

export async function judgePatch(o: PatchJudgeOptions): Promise<PatchJudgement> {
  const common: SystemTourOptions = {
    bounds: o.bounds,
    ...(o.concurrency ? { concurrency: o.concurrency } : {}),
    ...(o.provider !== undefined ? { provider: o.provider } : {}),
  };
  const tour = async (name: PatchTourName, opts: Omit<SystemTourOptions, 'bounds'>): Promise<SystemTourRun> => {
    const onProgress = o.progress?.(name);
    return o.tour.run({ ...common, ...opts, ...(onProgress ? { onProgress } : {}) });
  };
  const base = await tour('unpatched', { saveTrace: false });
  o.onUnpatched?.(base);
  if (unpatchedFailure(base.result) !== null) return { verdict: patchVerdict({ base: base.result, patched: base.result }), base };
  // The unpatched code ran the same tour: what throws now is the patch.
  const patchedTour = async (name: PatchTourName, invariant?: string): Promise<SystemTourRun> => {
    try {
      return await tour(name, { patch: o.patch, ...(invariant !== undefined ? { invariant, ...(base.result.digest ? { baseline: base.result.digest } : {}) } : {}) });
    } catch (err) {
      if (err instanceof TourSetupError || err instanceof TourUnavailableError) throw err;
      throw new PatchRunError(`the patched code cannot run: ${String((err as Error).message ?? err).split('\n')[0]}`);
    }
  };
  const patched = await patchedTour('patched', o.invariant);
  const f = patched.result.failure;
  if (!o.safetyOnly || o.invariant !== undefined || !f || !isDeparture(f)) return { verdict: patchVerdict({ base: base.result, patched: patched.result }), base, run: patched };
  const safety = await patchedTour('safety', EVERY_INVARIANT);
  const verdict = patchVerdict({ base: base.result, patched: patched.result, safety: safety.result });
  return { verdict, base, run: verdict.kind === 'killed' ? safety : patched };
}
