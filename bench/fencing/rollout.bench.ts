import type { BenchSection } from '../section.js';
import { envInt, envIntList } from '../../src/core/env.js';
import { describeFigures } from '../../src/systems/fencing/rollout/figures.js';
import { DEFAULT_REHEARSAL, rehearse } from '../../src/systems/fencing/rollout/rehearsal.js';

/**
 * The long migration rehearsal: 10 pods per ReplicaSet on real Valkey and a real Prometheus,
 * through O → A → B → rollback → A → B → backfill → C with every chaos kind, one line of figures
 * per seed (pods, sessions, generations issued, steps, refusals by rule, chaos events, wall time).
 * FENCECHECK_BENCH_ROLLOUT_SEEDS picks the seeds (default 1), FENCECHECK_BENCH_ROLLOUT_PODS the size.
 */
export const section: BenchSection = {
  name: 'rollout',
  title: 'The migration rehearsal at 10 pods per ReplicaSet: its figures per seed',
  async run(print) {
    const seeds = envIntList('FENCECHECK_BENCH_ROLLOUT_SEEDS', [1]);
    const pods = envInt('FENCECHECK_BENCH_ROLLOUT_PODS', 10);
    for (const seed of seeds) {
      const r = await rehearse({ ...DEFAULT_REHEARSAL, seed, pods, sessions: 40, stepTimeoutMs: 180_000 });
      print(`${r.ok ? 'held' : 'FAILED'}: ${describeFigures(seed, r.figures)}`);
      for (const v of r.violations) print(`  violation: ${v}`);
    }
  },
};
