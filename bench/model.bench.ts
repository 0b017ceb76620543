import type { BenchSection } from './section.js';

// Placeholder until the 'model' benchmarks land.
export const section: BenchSection = {
  name: 'model',
  title: 'model (not built yet)',
  async run(print) {
    print('not run: not built yet');
  },
};
