/**
 * The model layer: each mutant's model patch (mutants/<system>/model/<id>.ts) is provided to its
 * system's XState machine, the mutated twin is explored exhaustively on the base bounds, and its
 * expected invariant is checked alone with TypeOK — the same rule as the TLC configs
 * (model-seam.ts). Nothing here reads which mutant is active beyond loading its patch file.
 */
import type { LayerRunner } from '../../seam/layer-runner.js';
import { runSeamModelMutants } from '../../seam/model-mutant.js';
import { SYSTEMS } from '../../registry/systems.js';

export { ModelPatchError } from '../../seam/model-patch.js';

export const runner: LayerRunner = {
  layer: 'model',
  async unavailable() {
    return null; // pure TypeScript: runs wherever the CLI runs
  },
  run: (mutants, options) => runSeamModelMutants(mutants, options, SYSTEMS),
};
