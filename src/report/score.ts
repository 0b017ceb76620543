/**
 * The verify matrix's mutation score (the rule and its wording: src/core/mutation-score.ts).
 */
import { layerScore, type MutationScore } from '../core/mutation-score.js';
import type { MutationMatrix } from './verify-doc.js';

export { layerScore, scoreLines, scoreOf, scoreText } from '../core/mutation-score.js';

export function mutationScore(matrix: MutationMatrix): MutationScore {
  return layerScore(
    matrix.rows.flatMap((r) => matrix.layers.map((layer) => ({ layer, verdict: r.cells[layer].verdict }))),
    matrix.layers,
  );
}
