import type { LayerRunner } from '../layer-runner.js';

// Placeholder until the 'tla' layer's mutant runner lands: every mutant reports not-run.
export const runner: LayerRunner = {
  layer: 'tla',
  async unavailable() {
    return 'the tla layer mutant runner is not built yet';
  },
  async run() {
    return [];
  },
};
