import type { BenchSection } from './section.js';

// Placeholder until the 'limiter' benchmarks land.
export const section: BenchSection = {
  name: 'limiter',
  title: 'limiter (not built yet)',
  async run(print) {
    print('not run: not built yet');
  },
};
