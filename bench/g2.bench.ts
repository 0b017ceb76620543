import type { BenchSection } from './section.js';
import { runG2 } from '../src/systems/fencing/cluster-matrix/runner.js';
import { G2_ROWS } from '../src/systems/fencing/cluster-matrix/rows/index.js';
import { figuresText } from '../src/systems/fencing/cluster-matrix/report.js';

/**
 * G2's heavy repetitions: the failure drills repeated for halt-window percentiles (a primary killed
 * per drill; three drills per 3×1 topology, fresh topologies beyond), and every row's time.
 * FENCECHECK_BENCH_G2_DRILLS sets the number of drills (default 9).
 */
export const section: BenchSection = {
  name: 'g2',
  title: 'cluster client matrix: time per row; failover halt window percentiles over repeated drills',
  async run(print) {
    const drills = Number(process.env.FENCECHECK_BENCH_G2_DRILLS ?? 9);
    const rows = await runG2(G2_ROWS, { provider: 'native', repeat: drills });
    for (const r of rows)
      print(
        `${r.name.padEnd(9)} ${(r.durationMs / 1000).toFixed(1).padStart(6)} s  ${r.errors.status}/${r.silentlyWrong.status}  ${r.name === 'failover' || r.name === 'registry' ? figuresText(r) : ''}`,
      );
  },
};
