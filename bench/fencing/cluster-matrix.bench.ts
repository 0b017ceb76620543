import type { BenchSection } from '../section.js';
import { runMatrix } from '../../src/systems/fencing/cluster-matrix/runner.js';
import { MATRIX_ROWS } from '../../src/systems/fencing/cluster-matrix/rows/index.js';
import { figuresText } from '../../src/systems/fencing/cluster-matrix/report.js';

/**
 * The cluster matrix's heavy repetitions: the failure drills repeated for halt-window percentiles (a primary killed
 * per drill; three drills per 3×1 topology, fresh topologies beyond), and every row's time.
 * FENCECHECK_BENCH_CLUSTER_MATRIX_DRILLS sets the number of drills (default 9).
 */
export const section: BenchSection = {
  name: 'cluster-matrix',
  title: 'cluster client matrix: time per row; failover halt window percentiles over repeated drills',
  async run(print) {
    const drills = Number(process.env.FENCECHECK_BENCH_CLUSTER_MATRIX_DRILLS ?? 9);
    const rows = await runMatrix(MATRIX_ROWS, { provider: 'native', repeat: drills });
    for (const r of rows)
      print(
        `${r.name.padEnd(9)} ${(r.durationMs / 1000).toFixed(1).padStart(6)} s  ${r.errors.status}/${r.silentlyWrong.status}  ${r.name === 'failover' || r.name === 'registry' ? figuresText(r) : ''}`,
      );
  },
};
