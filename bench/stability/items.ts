import { MATRIX_ROWS } from '../../src/systems/fencing/cluster-matrix/rows/index.js';

/**
 * What the stability benchmark repeats (issue 22, "a gate nobody turns off"): every real-time row
 * and drill, whose verdict depends on real time, and the interruption of every long command.
 */
export interface Sandbox {
  /** A folder of this run, removed with it (verify's --out). */
  readonly dir: string;
}

export interface RunItem {
  readonly kind: 'run';
  readonly name: string;
  readonly argv: (s: Sandbox) => readonly string[];
  readonly hardLimitMs: number;
}

export interface InterruptItem {
  readonly kind: 'interrupt';
  readonly name: string;
  readonly argv: (s: Sandbox) => readonly string[];
  readonly hardLimitMs: number;
  /** The signal goes this long (at most; seeded) after the command's first valkey-server appears. */
  readonly maxDelayMs: number;
}

export type StabilityItem = RunItem | InterruptItem;

const MIN = 60_000;

const run = (name: string, argv: readonly string[], hardLimitMs = 5 * MIN): RunItem => ({ kind: 'run', name, argv: () => argv, hardLimitMs });
const interrupt = (name: string, argv: (s: Sandbox) => readonly string[], maxDelayMs = 3_000): InterruptItem => ({ kind: 'interrupt', name, argv, hardLimitMs: 10 * MIN, maxDelayMs });

export const STABILITY_ITEMS: readonly StabilityItem[] = [
  ...MATRIX_ROWS.map((r) => run(`cluster-matrix ${r.name}`, ['cluster-matrix', '--row', r.name])),
  run('pause standalone', ['pause']),
  run('pause cluster', ['pause', '--topology', 'cluster']),
  run('failover drill', ['failover']),
  interrupt('stop topology start', () => ['topology', 'start'], 500),
  interrupt('stop conform', () => ['conform']),
  interrupt('stop props', () => ['props']),
  interrupt('stop limiter', () => ['limiter']),
  interrupt('stop mutants impl', () => ['mutants', '--layer', 'impl']),
  interrupt('stop cluster-matrix', () => ['cluster-matrix']),
  interrupt('stop pause', () => ['pause', '--topology', 'cluster']),
  interrupt('stop failover', () => ['failover']),
  interrupt('stop verify', (s) => ['verify', '--allow-not-run', 'tlc', '--out', s.dir]),
  interrupt('stop trace replay', () => ['trace', 'replay', 'test/report/fixtures/conform-M1.trace.json'], 500),
];
