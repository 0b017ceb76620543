import type { LayerRunner } from '../layer-runner.js';

// Placeholder until the 'limiter' layer's mutant runner lands: every mutant reports not-run.
export const runner: LayerRunner = {
  layer: 'limiter',
  async unavailable() {
    return 'the limiter layer mutant runner is not built yet';
  },
  async run() {
    return [];
  },
};
