import type { BenchSection } from './section.js';

// Placeholder until the 'foundation' benchmarks land.
export const section: BenchSection = {
  name: 'foundation',
  title: 'foundation (not built yet)',
  async run(print) {
    print('not run: not built yet');
  },
};
