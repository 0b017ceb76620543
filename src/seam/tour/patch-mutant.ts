/**
 * A user's patch entry (src/seam/patch-file.ts userPatchEntry, any invariant) judged on its system's
 * tour and reported as a mutant's result: the impl layer's answer for such an entry, so `mutants
 * --patch`, the impl layer and `conform --patch` give one verdict (patchVerdict's, through
 * judgePatch). killed by the failing check (a departure is a Conformance kill here: only `conform
 * --safety-only` excuses it); equivalent when nothing observed differs; survived; invalid when the
 * unpatched code fails the tour or the patch cannot run (invalidBy says which); not-run when the real
 * system cannot be started.
 */
import type { MutantEntry } from '../../core/manifest.js';
import type { MutantResult } from '../../core/verdict.js';
import type { SystemTour } from './entry.js';
import { TourSetupError, TourUnavailableError } from './entry.js';
import { judgePatch, PatchRunError, type PatchTourName } from './patch-judge.js';
import { patchFileRecord } from '../patch-file.js';

/** The constants a patch is toured with: the given ones, else the gate's (`gate`) or the tour's default bound (as `conform` without --patch). */
export function tourConstants(tour: SystemTour, constants: Readonly<Record<string, string>>, gate: boolean): Readonly<Record<string, string>> {
  if (Object.keys(constants).length > 0) return constants;
  return (gate ? tour.gateConstants : tour.defaultConstants) ?? {};
}

export interface PatchEntryOptions {
  /** The model's bounds (after the constants). */
  readonly bounds: unknown;
  /** Each tour's progress: attempts judged of the tour's total, states reached. */
  readonly progress?: (tour: PatchTourName, attempts: number, total: number, states: number) => void;
}

/** The entry's patch judged on `tour`, as a mutant result of the impl layer. */
export async function judgePatchEntry(tour: SystemTour, entry: MutantEntry, o: PatchEntryOptions): Promise<MutantResult> {
  const head = { id: entry.id, layer: 'impl' as const, expectedInvariant: 'any' };
  const t0 = performance.now();
  const took = () => ({ durationMs: Math.round(performance.now() - t0) });
  const file = entry.layers.impl?.patch;
  if (!file) return { ...head, verdict: 'invalid', invalidBy: 'patch', reason: `${entry.id} names no patch file`, ...took() };
  let j;
  try {
    j = await judgePatch({
      tour,
      patch: patchFileRecord(file),
      bounds: o.bounds,
      ...(o.progress ? { progress: (name: PatchTourName) => (attempts: number, total: number, states: number) => o.progress!(name, attempts, total, states) } : {}),
    });
  } catch (err) {
    if (err instanceof TourUnavailableError) return { ...head, verdict: 'not-run', reason: err.message, ...took() };
    if (err instanceof TourSetupError) return { ...head, verdict: 'invalid', invalidBy: 'patch', reason: err.message, ...took() };
    if (err instanceof PatchRunError) return { ...head, verdict: 'invalid', invalidBy: 'run', reason: err.message.replace(/^the patched code cannot run: /, ''), ...took() };
    throw err;
  }
  const v = j.verdict;
  const run = j.run;
  if (v.kind === 'unjudged') return { ...head, verdict: 'invalid', invalidBy: 'unpatched', reason: `the unpatched code fails its tour: ${v.why}`, ...took() };
  if (v.kind === 'killed' || v.kind === 'departs') {
    const f = v.kind === 'killed' ? v.failure : v.departure;
    return {
      ...head,
      verdict: 'killed',
      violated: f.check,
      traceLength: f.path.length,
      ...(run?.tracePath ? { tracePath: run.tracePath } : {}),
      ...(run?.replay ? { replay: run.replay } : {}),
      reason: `${f.check} after ${f.path.length - 1} steps${f.attempt ? ` (at ${f.attempt})` : ''}: ${f.message}`,
      ...took(),
    };
  }
  const r = v.result;
  return v.kind === 'equivalent'
    ? { ...head, verdict: 'equivalent', reason: `everything observed is the unpatched code's (${r.states} states, ${r.attempts} attempts)`, ...took() }
    : { ...head, verdict: 'survived', reason: `every check held (${r.states} states, ${r.attempts} attempts) but something observed differs from the unpatched code`, ...took() };
}
