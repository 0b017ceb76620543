/**
 * The seam every row of the cluster matrix implements (the design's conformance test matrix):
 * two verdict columns per row — errors, and silently wrong — because a harness that only watches
 * for errors passes the silent bugs (partial SCAN discovery, lost resubscription, a dead primary).
 */
import { worstStatus, type StageStatus } from '../../../core/stage-report.js';
import type { Topology, TopologySpec, ProviderName } from '../../../valkey/index.js';

/** passed, failed(reason) or not-run(reason); not-run is never a pass. */
export type Verdict = { readonly status: 'passed' } | { readonly status: 'failed'; readonly reason: string } | { readonly status: 'not-run'; readonly reason: string };

export const passed: Verdict = { status: 'passed' };
export const failed = (reason: string): Verdict => ({ status: 'failed', reason });
export const notRun = (reason: string): Verdict => ({ status: 'not-run', reason });

/** Named measurements of one row (counts, ms, shares); printed in the matrix and kept in the JSON. */
export type Figures = Readonly<Record<string, number | string>>;

export interface RowOutcome {
  readonly errors: Verdict;
  readonly silentlyWrong: Verdict;
  readonly figures: Figures;
  readonly notes: readonly string[];
}

export interface RowContext {
  /** Started once by the runner for every row that needs this spec; owned by the harness. */
  readonly topology: Topology;
  /** How many times repeated measurements run (drills); 1 in the test suite. */
  readonly repeat: number;
  readonly log: (line: string) => void;
  /** Progress of a long row: done out of total units (wired to a ProgressConsole meter by the CLI). */
  readonly progress?: (done: number, total: number, unit: string) => void;
}

/**
 * One row of the matrix. `variant` picks the implementation under test (e.g. discovery design
 * 'index' vs 'scan'); the row's checkers never see it, they judge what they observe against the
 * known population / messages / generations.
 */
export interface MatrixRow<V extends string = string> {
  readonly name: string;
  /** The matrix's surface column (the design's wording). */
  readonly surface: string;
  readonly topology: TopologySpec;
  /** variants[0] is the design the relay must ship; the others are deliberately broken. */
  readonly variants: readonly V[];
  run(ctx: RowContext, variant: V): Promise<RowOutcome>;
}

/** What the runner reports per row: the StageReport's `details.rows[]` (shape documented in docs/cluster-matrix.md). */
export interface RowResult {
  readonly name: string;
  readonly surface: string;
  readonly variant: string;
  readonly topology: string;
  readonly provider?: ProviderName;
  readonly durationMs: number;
  readonly errors: Verdict;
  readonly silentlyWrong: Verdict;
  readonly figures: Figures;
  readonly notes: readonly string[];
}

/** A row is red when either column failed, incomplete when one did not run (never counted as passed). */
export function rowStatus(r: Pick<RowResult, 'errors' | 'silentlyWrong'>): StageStatus {
  return worstStatus([r.errors.status, r.silentlyWrong.status]);
}

/** A verdict from a list of findings: passed when empty, else failed with the first few. */
export function verdictOf(findings: readonly string[], max = 3): Verdict {
  if (findings.length === 0) return passed;
  const shown = findings.slice(0, max).join('; ');
  return failed(findings.length > max ? `${shown}; … ${findings.length - max} more` : shown);
}
