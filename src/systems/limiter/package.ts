/** The ordered two-bucket limiter package (src/seam/package.ts): its Lua script on real Valkey; no TLA+ model yet. */
import type { SystemPackage } from '../../seam/package.js';
import { commandStage } from '../../seam/command-stage.js';

export const limiterPackage: SystemPackage = {
  name: 'limiter',
  luaScripts: ['src/systems/limiter/lua'],
  systems: [
    {
      name: 'limiter',
      title: 'the ordered two-bucket rate limiter (one Lua script, both buckets or neither)',
      expectedNames: async () => (await import('../../../properties/limiter/harness.js')).CHECKS,
      patchChecks: async () => (await import('./patch-checks.js')).limiterPatchChecks,
    },
  ],
  impl: async () => {
    const { runLimiterEntries } = await import('./impl-runner.js');
    const { valkeyUnavailableReason } = await import('../../valkey/index.js');
    return {
      system: 'limiter',
      unavailable: valkeyUnavailableReason,
      run: (entries, options) =>
        runLimiterEntries(
          entries.filter((m) => !options.only || options.only.includes(m.id)),
          options,
        ),
    };
  },
  commands: { limiter: () => import('./command.js') },
  stages: [
    commandStage({
      name: 'limiter',
      takes: ['runs', 'seed', 'topology'],
      heavy: true,
      what: 'the limiter script against its reference model and the required invariant tests, standalone and on a cluster',
      command: () => import('./command.js'),
      argv: (p) => [
        ...(p.runs !== undefined ? ['--runs', String(p.runs)] : []),
        ...(p.seed !== undefined ? ['--seed', String(p.seed)] : []),
        ...(p.topology !== undefined ? ['--topology', p.topology] : []),
      ],
    }),
  ],
};
