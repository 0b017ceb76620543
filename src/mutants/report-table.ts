export { allKilled, formatMutantTable } from '../core/verdict-table.js';
import { layerScore, scoreLines, type MutationScore } from '../core/mutation-score.js';
import { LAYERS } from '../core/manifest.js';
import type { MutantResult } from '../core/verdict.js';

/** killed / (mutants − equivalent) per layer run and overall; not-run results count against it (src/core/mutation-score.ts). */
export function mutantScore(results: readonly MutantResult[]): MutationScore {
  return layerScore(results, LAYERS);
}

/** The score lines printed below the table: one per layer, then overall, each naming its not-run results. */
export function formatMutationScore(results: readonly MutantResult[]): string {
  return scoreLines(mutantScore(results)).join('\n');
}
