import type { LayerRunner } from '../layer-runner.js';

// Placeholder until the 'impl' layer's mutant runner lands: every mutant reports not-run.
export const runner: LayerRunner = {
  layer: 'impl',
  async unavailable() {
    return 'the impl layer mutant runner is not built yet';
  },
  async run() {
    return [];
  },
};
