import type { LayerRunner } from '../layer-runner.js';

// Placeholder until the 'model' layer's mutant runner lands: every mutant reports not-run.
export const runner: LayerRunner = {
  layer: 'model',
  async unavailable() {
    return 'the model layer mutant runner is not built yet';
  },
  async run() {
    return [];
  },
};
