import type { BenchSection } from './section.js';

// Placeholder until the 'props' benchmarks land.
export const section: BenchSection = {
  name: 'props',
  title: 'props (not built yet)',
  async run(print) {
    print('not run: not built yet');
  },
};
