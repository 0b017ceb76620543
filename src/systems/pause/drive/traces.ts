/** The walks of a drive as observed traces to write (src/systems/pause/tracecheck.ts maps each step). */
import type { ObservedTrace } from '../../../seam/tracecheck/format.js';
import { replayCommand } from './run.js';

/** A drive's walks as observed traces, named and with their replay commands (`mutant`: the patch the layer applied, if any). */
export function walkTraces(
  walks: readonly { readonly index: number; readonly observed: ObservedTrace }[],
  meta: { readonly topology: 'standalone' | 'cluster'; readonly seed: number; readonly steps: number; readonly patch?: string; readonly mutant?: string },
): ObservedTrace[] {
  return walks.map((w) => ({
    ...w.observed,
    id: `${meta.topology} seed ${meta.seed} walk ${w.index}`,
    ...(meta.mutant !== undefined && { mutant: meta.mutant }),
    replay: replayCommand({ topology: meta.topology, seed: meta.seed, steps: meta.steps, walk: w.index, ...(meta.patch ? { patch: meta.patch } : {}) }),
  }));
}
