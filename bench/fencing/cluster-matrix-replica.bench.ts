import type { BenchSection } from '../section.js';
import { startTopology } from '../../src/valkey/index.js';
import { replicaRow, REPLICA_VARIANTS, type ReplicaVariant } from '../../src/systems/fencing/cluster-matrix/rows/replica.js';
import { useAbsoluteValkeyBinary } from '../../src/systems/fencing/cluster-matrix/drills/restart.js';
import { rowStatus, type RowOutcome } from '../../src/systems/fencing/cluster-matrix/types.js';
import { percentile } from '../../src/core/stats.js';

/**
 * The replica row's determinism: each variant run N times on one 3×1 topology, the
 * variants interleaved so they share the machine's load. guarded must be green every run, the
 * broken ones red with a nil read named every run. FENCECHECK_BENCH_CLUSTER_MATRIX_REPLICA_RUNS sets N
 * (default 20), FENCECHECK_BENCH_CLUSTER_MATRIX_REPLICA_VARIANTS the comma-separated variants (default
 * guarded,unguarded,no-admission).
 */
const NIL_READ = /read \d+ of \S+ returned null/;
const PHASES = 'wrong reads before / link down / restarted / behind / released';

interface Tally {
  readonly outcomes: RowOutcome[];
  readonly ms: number[];
}

function numbers(outcomes: readonly RowOutcome[], figure: string): number[] {
  return outcomes.map((o) => o.figures[figure]).filter((v): v is number => typeof v === 'number');
}

const p50max = (xs: readonly number[]) => (xs.length === 0 ? '—' : `${Math.round(percentile(xs, 50))}/${Math.round(Math.max(...xs))}`);

export const section: BenchSection = {
  name: 'cluster-matrix-replica',
  title: 'cluster matrix replica row: green/red counts per variant over repeated runs (guarded green every run, the broken ones red with a nil read)',
  async run(print) {
    const runs = Number(process.env.FENCECHECK_BENCH_CLUSTER_MATRIX_REPLICA_RUNS ?? 20);
    const asked = (process.env.FENCECHECK_BENCH_CLUSTER_MATRIX_REPLICA_VARIANTS ?? 'guarded,unguarded,no-admission').split(',').map((s) => s.trim());
    const variants = asked.filter((v): v is ReplicaVariant => (REPLICA_VARIANTS as readonly string[]).includes(v));
    if (!Number.isInteger(runs) || runs < 1 || variants.length !== asked.length) {
      throw new Error(`FENCECHECK_BENCH_CLUSTER_MATRIX_REPLICA_RUNS must be a positive integer and the variants among ${REPLICA_VARIANTS.join(', ')}`);
    }
    useAbsoluteValkeyBinary();
    const topology = await startTopology(replicaRow.topology, { provider: 'native' });
    const tallies = new Map<ReplicaVariant, Tally>(variants.map((v) => [v, { outcomes: [], ms: [] }]));
    try {
      for (let i = 0; i < runs; i++) {
        for (const v of variants) {
          const t0 = performance.now();
          const o = await replicaRow.run({ topology, repeat: 1, log: () => {} }, v);
          const t = tallies.get(v)!;
          t.ms.push(performance.now() - t0);
          t.outcomes.push(o);
        }
      }
    } finally {
      await topology.stop();
    }
    for (const [v, t] of tallies) {
      const green = t.outcomes.filter((o) => rowStatus(o) === 'passed').length;
      const notRun = t.outcomes.filter((o) => rowStatus(o) === 'not-run').length;
      const nilRed = t.outcomes.filter((o) => o.silentlyWrong.status === 'failed' && NIL_READ.test(o.silentlyWrong.reason)).length;
      const red = t.outcomes.length - green - notRun;
      const sum = (figure: string) => numbers(t.outcomes, figure).reduce((a, b) => a + b, 0);
      const byPhase = [0, 0, 0, 0, 0];
      for (const o of t.outcomes)
        String(o.figures[PHASES] ?? '')
          .split('/')
          .forEach((x, i) => (byPhase[i] = (byPhase[i] ?? 0) + (Number(x) || 0)));
      print(
        `${v.padEnd(15)} green ${green}/${runs}, red ${red}/${runs} (a nil read named in ${nilRed}), not run ${notRun}; ` +
          `run s p50/max ${(percentile(t.ms, 50) / 1000).toFixed(1)}/${(Math.max(...t.ms) / 1000).toFixed(1)}; ` +
          `back in pool ms p50/max ${p50max(numbers(t.outcomes, 'back in the read pool ms'))}; ` +
          `read from again after release ms p50/max ${p50max(numbers(t.outcomes, 'reads from it again after release ms'))}; ` +
          `wrong reads ${sum('wrong reads')} (before / link down / restarted / behind / released ${byPhase.join('/')}), read errors ${sum('read errors')}, refused ${sum('reads refused by the replica')}, re-sent ${sum('reads re-sent to the primary')}`,
      );
      const firstRed = t.outcomes.find((o) => rowStatus(o) === 'failed');
      if (firstRed && firstRed.silentlyWrong.status === 'failed') print(`${''.padEnd(15)} first red: ${firstRed.silentlyWrong.reason.slice(0, 160)}`);
    }
    print(`replay one run: npx fencecheck cluster-matrix --row replica --variant replica=<variant>`);
  },
};
