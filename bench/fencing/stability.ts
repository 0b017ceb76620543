import { MATRIX_ROWS } from '../../src/systems/fencing/cluster-matrix/rows/index.js';
import { interrupt, run, type StabilityItem } from '../stability/items.js';

/** Fencing's items of the stability benchmark: every cluster-matrix row, the failover drill, and stopping its long commands. */
export const items: readonly StabilityItem[] = [
  ...MATRIX_ROWS.map((r) => run(`cluster-matrix ${r.name}`, ['cluster-matrix', '--row', r.name])),
  run('failover drill', ['failover']),
  interrupt('stop props', () => ['props']),
  interrupt('stop cluster-matrix', () => ['cluster-matrix']),
  interrupt('stop failover', () => ['failover']),
];
