/**
 * The cluster-matrix stage: every row (or those given) on real multi-shard Valkey, each with its
 * two verdicts — errors, and silently wrong. `fencecheck cluster-matrix` parses its options, runs
 * this and prints the report (or the table).
 */
import { ProgressConsole, type ProgressMeter } from '../../../core/progress.js';
import type { StageIO } from '../../../core/stage.js';
import type { StageReport } from '../../../core/stage-report.js';
import type { ProviderChoice } from '../../../valkey/start.js';
import { MATRIX_ROWS } from './rows/index.js';
import type { MatrixRow, RowResult } from './types.js';
import { runMatrix } from './runner.js';
import { clusterMatrixReport, verdictText } from './report.js';

/** Each failure drill's repetitions by default. */
export const DEFAULT_DRILL_REPEAT = 3;

export interface ClusterMatrixInput {
  /** The rows to run (default: every row). */
  readonly rows?: readonly MatrixRow[];
  /** Row → the broken variant to run instead. */
  readonly variants?: Readonly<Record<string, string>>;
  readonly repeat?: number;
  readonly provider?: ProviderChoice;
}

/** The rows' results and their report (the command prints the table of the results). */
export async function runClusterMatrix(input: ClusterMatrixInput): Promise<{ readonly report: StageReport; readonly results: readonly RowResult[] }> {
  const startedAt = new Date();
  const progress = new ProgressConsole();
  let meter: ProgressMeter | undefined;
  const t0 = performance.now();
  const results = await runMatrix([...new Set(input.rows ?? MATRIX_ROWS)], {
    ...(input.provider ? { provider: input.provider } : {}),
    repeat: input.repeat ?? DEFAULT_DRILL_REPEAT,
    variants: { ...input.variants },
    log: (line) => progress.log(line),
    progress: (row) => (done, total, unit) => {
      meter ??= progress.meter(`cluster-matrix ${row}`, total, unit);
      meter.update(done);
      if (done >= total) {
        meter.done();
        meter = undefined;
      }
    },
    onRow: (r) => progress.log(`[cluster-matrix] ${r.name}: errors ${verdictText(r.errors)} · silently wrong ${verdictText(r.silentlyWrong)} (${(r.durationMs / 1000).toFixed(1)} s)`),
  });
  progress.close();
  return { report: clusterMatrixReport(results, startedAt, Math.round(performance.now() - t0)), results };
}

export async function clusterMatrixStage(input: ClusterMatrixInput, _io: StageIO): Promise<StageReport> {
  return (await runClusterMatrix(input)).report;
}
