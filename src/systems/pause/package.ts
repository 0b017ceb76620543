/** The pause snapshot package (src/seam/package.ts): on real replicas and Valkey. */
import type { AnySystem, SystemPackage } from '../../seam/package.js';
import { PAUSE_TRACE_VALIDATION } from './tracecheck.js';
import { commandStage } from '../../seam/command-stage.js';

export const pausePackage: SystemPackage = {
  name: 'pause',
  systems: [
    {
      name: 'pause',
      title: 'the versioned pause snapshot: zero-I/O pause reads that fail closed, on a fleet of replicas',
      model: async () => (await import('./system.js')).pauseSystem() as unknown as AnySystem,
      expectedNames: async () => Object.keys((await import('./system.js')).pauseSystem().invariants),
      traceValidation: PAUSE_TRACE_VALIDATION,
      tour: async () => (await import('./tour/entry.js')).pauseTour,
      replay: async () => (await import('./replay.js')).pauseJudgedReplayer,
    },
  ],
  commands: { pause: () => import('./command.js') },
  stages: [
    commandStage({
      name: 'pause',
      // The walks run on the cluster (real pub/sub propagation); only the seed is verify's.
      takes: ['seed'],
      heavy: true,
      recordsTraces: true,
      what: "the pause snapshot on a real 3-shard cluster: seeded walks of its twin with dropped, delayed and reordered events, failed writes and late starts; the spec's invariants on the real replicas and keyspace, and the share of the twin covered",
      command: () => import('./command.js'),
      argv: (p) => ['--topology', 'cluster', ...(p.seed !== undefined ? ['--seed', String(p.seed)] : [])],
    }),
  ],
  impl: async () => {
    const { pauseImplRunner } = await import('./impl-layer.js');
    const { valkeyUnavailableReason } = await import('../../valkey/index.js');
    const runner = pauseImplRunner();
    return {
      system: 'pause',
      unavailable: valkeyUnavailableReason,
      run: (entries, options) =>
        runner.run(
          entries.filter((m) => !options.only || options.only.includes(m.id)),
          options,
        ),
    };
  },
};
