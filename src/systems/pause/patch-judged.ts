/**
 * A user's pause patch (`fencecheck pause --patch FILE`) judged as `conform --patch` and `mutants
 * --patch` judge it: its walks are a sample, so after they hold the patch is toured at verify's
 * bound (one SetPaused call, every interleaving) with full conformance, every invariant, the TTL
 * rule and the read side, and the one verdict function decides (src/seam/tour/patch-mutant.ts):
 * killed by the named check, equivalent only when nothing observed differs, else survived.
 */
import type { MutantResult } from '../../core/verdict.js';
import { patchFileRecord, userPatchEntry } from '../../seam/patch-file.js';
import { EVERY_INVARIANT } from '../../seam/tour/entry.js';
import { judgePatchEntry } from '../../seam/tour/patch-mutant.js';
import { PAUSE_BASE_BOUNDS } from './model-state.js';
import { pauseConstants } from './system.js';
import { PAUSE_GATE_CONSTANTS, pauseTour } from './tour/entry.js';

export async function judgePausePatchOnTour(file: string, progress?: (attempts: number, total: number, states: number) => void): Promise<MutantResult> {
  const entry = userPatchEntry(patchFileRecord(file), 'pause', EVERY_INVARIANT);
  return judgePatchEntry(pauseTour, entry, {
    bounds: pauseConstants(PAUSE_BASE_BOUNDS, PAUSE_GATE_CONSTANTS),
    ...(progress ? { progress: (_tour, attempts, total, states) => progress(attempts, total, states) } : {}),
  });
}

/** The verdict as one line, and the stage status it gives the command (invalid by the patch: bad input). */
export function pausePatchVerdict(r: MutantResult): { readonly line: string; readonly status: 'passed' | 'failed' | 'not-run' | 'bad-input' } {
  const line = `patch judged on the tour at MaxCalls=1: ${r.verdict}${r.violated ? ` by ${r.violated}` : ''}${r.reason ? ` (${r.reason.split('\n')[0]})` : ''}${r.replay ? `\n  replay: ${r.replay}` : ''}`;
  if (r.verdict === 'killed') return { line, status: 'failed' };
  if (r.verdict === 'not-run') return { line, status: 'not-run' };
  if (r.verdict === 'invalid') return { line, status: r.invalidBy === 'unpatched' ? 'failed' : 'bad-input' };
  return { line, status: 'passed' };
}
