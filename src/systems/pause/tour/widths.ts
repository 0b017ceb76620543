/**
 * The pause tour's version-width passes. The main tour's versions start at 2^31 − 1 and its writes
 * reach 2^31 + MaxCalls − 1: every version it shows has ten digits, so a comparison that is right
 * only while both sides have as many digits (versions compared as the text Valkey returns) passes
 * it. These passes run the same tour again at verify's bound from a version just below a power of
 * ten (999,999,999: the first write has one digit more) and from just below 2^53 (the code accepts
 * every safe integer: decodeStored and decodeEvent refuse the rest), the model and the spec
 * unchanged — the model's version v is the real base + v in every pass.
 */
import type { TourCheckMode, TourResult } from '../../../seam/tour/result.js';
import { runTour } from '../../../seam/tour/tour.js';
import { namedResult, systemFor } from '../../../seam/tour/entry-kit.js';
import type { PauseBounds } from '../model-state.js';
import type { PausePatch } from '../patch.js';
import type { PauseAttempt, PauseDecision, PauseTourState } from './model.js';
import type { PauseTourRig } from './rig.js';
import { pauseTourSystem } from './system.js';

export interface WidthPass {
  readonly name: string;
  /** The real version of the model's version 0. */
  readonly base: number;
}

/** The passes at these bounds: across a power of ten, and up to the largest safe integer. */
export function pauseWidthPasses(bounds: PauseBounds): readonly WidthPass[] {
  return [
    { name: 'across a power of ten', base: 10 ** 9 - 1 },
    { name: 'up to 2^53 − 1', base: Number.MAX_SAFE_INTEGER - bounds.maxCalls },
  ];
}

export interface WidthPassResult extends WidthPass {
  readonly result: TourResult<PauseTourState, PauseAttempt, PauseDecision>;
}

/**
 * Runs the passes in order on the rig and stops after the first that fails (conformance, or one
 * invariant on the real graph for a patch). Each pass is a whole tour of the bounds.
 */
export async function runPauseWidthPasses(rig: PauseTourRig, opts: { bounds: PauseBounds; patch?: PausePatch; checks: TourCheckMode; invariant?: string }): Promise<WidthPassResult[]> {
  const out: WidthPassResult[] = [];
  for (const pass of pauseWidthPasses(opts.bounds)) {
    const system = pauseTourSystem({ rig, bounds: opts.bounds, baseVersion: pass.base, ...(opts.patch ? { patch: opts.patch } : {}) });
    // Every invariant at once (a user's patch): the model with their conjunction, the failure named by the ones broken.
    const result = namedResult(system.model, await runTour(systemFor(system, opts.invariant), { checks: opts.checks }));
    out.push({ ...pass, result });
    if (result.failure !== null) break;
  }
  return out;
}

/** One line per pass: "across a power of ten (from 999999999): 696 of 696 model states, the real graph is the model's". */
export function widthPassLine(p: WidthPassResult): string {
  const r = p.result;
  const what = r.failure
    ? `${r.failure.check} after ${r.failure.path.length - 1} attempts: ${r.failure.message}`
    : r.checks.kind === 'conformance'
      ? "the real graph is the model's"
      : `${r.checks.invariant} never broken`;
  return `${p.name} (versions from ${p.base}): ${r.covered.states} of ${r.model.states} model states, ${r.attempts} attempts; ${what}`;
}
