import { defineConfig } from 'vitest/config';
import { DEEP_FILES, tierOf } from './test/support/tiers.js';

const ALL = ['test/**/*.test.ts', 'src/**/*.test.ts', 'models/**/*.test.ts', 'properties/**/*.test.ts', 'mutants/**/*.test.ts'];
// npm test: the quick tier; npm run test:deep: the full-size files; test:all: both (test/support/tiers.ts).
const tier = tierOf(process.env.FENCECHECK_TESTS);

export default defineConfig({
  test: {
    include: tier === 'deep' ? [...DEEP_FILES] : ALL,
    exclude: tier === 'quick' ? ['**/node_modules/**', ...DEEP_FILES] : ['**/node_modules/**'],
    // Forks, not threads: a test file that crashes takes its own process down, and the Valkey
    // process registry reaps what it started (src/valkey/). Two cores, three workers: the files
    // wait on servers and child processes, and two workers kept only 1.4 cores busy.
    pool: 'forks',
    maxWorkers: 3,
    // The run's own temporary directory, and the check that nothing is left in it (or running).
    globalSetup: ['./test/cleanup/global-setup.ts'],
    setupFiles: ['./test/support/end-of-file.setup.ts'],
    // The runtime locality guard (src/valkey/locality-guard.ts) on every Cluster client the suite
    // creates, and in the CLI processes it spawns: one slot per command, pipeline command and script call.
    env: { FENCECHECK_LOCALITY_GUARD: '1' },
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ['default', './test/support/plain-summary-reporter.ts'],
  },
});
