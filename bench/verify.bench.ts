import type { BenchSection } from './section.js';

// Placeholder until the 'verify' benchmarks land.
export const section: BenchSection = {
  name: 'verify',
  title: 'verify (not built yet)',
  async run(print) {
    print('not run: not built yet');
  },
};
