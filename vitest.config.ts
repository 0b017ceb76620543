import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'models/**/*.test.ts', 'properties/**/*.test.ts', 'mutants/**/*.test.ts'],
    // Forks, not threads: a test file that crashes takes its own process down, and the Valkey
    // process registry reaps what it started (src/valkey/). Two cores: two workers.
    pool: 'forks',
    maxWorkers: 2,
    globalSetup: ['./test/cleanup/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ['default', './test/support/plain-summary-reporter.ts'],
  },
});
