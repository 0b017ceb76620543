/**
 * The one JSON document a `fencecheck verify` run writes (reports/verify.json), schema
 * `fencecheck.verify/2`, documented field by field in docs/report-schema.md. Every other output
 * (JUnit, Markdown, HTML) is rendered from this document alone.
 */
import type { Layer, MutantSystem } from '../core/manifest.js';
import type { MutantResult } from '../core/verdict.js';
import type { CellVerdict, MutationScore } from '../core/mutation-score.js';
import type { StageReport } from '../core/stage-report.js';
import type { TlcModelBlock } from '../core/report-details.js';

export const VERIFY_SCHEMA = 'fencecheck.verify/2' as const;
/** The schema before TLC figures came per model and the stage-specific summaries left the document. */
export const VERIFY_SCHEMA_V1 = 'fencecheck.verify/1' as const;

/**
 * passed / failed / not-run: what the stage itself reported.
 * error: the stage did not produce a usable result (crash, signal, timeout, usage error, no report):
 * a finding, never waived by --allow-not-run.
 */
export type OutcomeStatus = 'passed' | 'failed' | 'not-run' | 'error';

export interface StageOutcome {
  readonly stage: string;
  /** The child command line after `node bin/fencecheck.mjs`. */
  readonly command: readonly string[];
  readonly status: OutcomeStatus;
  /** Why, for every status but passed. */
  readonly reason?: string;
  /** Named in --allow-not-run. */
  readonly allowedNotRun: boolean;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly summary: string;
  readonly counts?: Readonly<Record<string, number>>;
  /** Processes the stage left in its process group after it exited (verify killed them). */
  readonly leftoverProcesses: number;
  /** The stage's stderr, relative to the output directory. */
  readonly logPath?: string;
  /** The StageReport the command printed with --json (null when it printed none). */
  readonly report: StageReport | null;
  /** CPU the stage's process and the children it waited for (servers, workers) used, when it said. */
  readonly cpu?: { readonly userMs: number; readonly systemMs: number };
}

export type { CellVerdict, MutationScore, ScoreFigure } from '../core/mutation-score.js';

/** A mutant × layer cell: the layer's own result fields, or why there is none. */
export interface MatrixCell extends Pick<MutantResult, 'violated' | 'alsoBroken' | 'traceLength' | 'tracePath' | 'seed' | 'path' | 'durationMs' | 'reason'> {
  readonly verdict: CellVerdict;
  /** The stage whose result this is (or that would have produced it). */
  readonly stage: string;
  /** `evidence`: the layer's own stage did not run here; the verdict is the committed evidence's. */
  readonly from?: 'evidence';
  /** The one command that reproduces this cell (src/report/replay.ts); absent for n/a and not-selected cells. */
  readonly replay?: string;
}

export interface MatrixRow {
  readonly id: string;
  readonly system: MutantSystem;
  readonly target: string;
  readonly description: string;
  readonly expectedInvariant: string;
  readonly cells: Readonly<Record<Layer, MatrixCell>>;
}

export interface MutationMatrix {
  readonly layers: readonly Layer[];
  readonly rows: readonly MatrixRow[];
  /** The matrix's mutation score (src/core/mutation-score.ts); absent in documents written before it (renderers compute it). */
  readonly score?: MutationScore;
}

/**
 * The TLC figures of one model an auditor reads first: a stage's TLC block
 * (src/core/report-details.ts TlcModelBlock) with what its command line's flags mean.
 */
export interface TlcSummary extends TlcModelBlock {
  readonly flags?: TlcFlags;
}

export type { TlcDump } from '../core/report-details.js';

/** TLC's flags from its command line (src/report/tlc-flags.ts). */
export interface TlcFlags {
  /** false when TLC ran with `-deadlock`: a state without successors is then not an error. */
  readonly deadlockChecking: boolean;
  /** `-workers N` (absent: TLC's default, 1). */
  readonly workers?: string;
  /** `-dump [FORMATS] FILE`. */
  readonly dump?: string;
  /** Every TLC flag with its value, in order. */
  readonly flags: readonly string[];
  /** JVM options before the main class (-XX:…, -D…). */
  readonly jvm?: readonly string[];
}

export interface VerifyOptions {
  readonly stages: readonly string[];
  /** Stages left out by --stages/--skip (shown, not run, not a failure). */
  readonly notSelected: readonly string[];
  readonly runs?: number;
  readonly seed?: number;
  readonly topology?: string;
  readonly constants?: readonly string[];
  readonly allowNotRun: readonly string[];
  readonly jobs: number;
  readonly stageTimeoutMs: number;
  readonly out: string;
  /** `verify --shard i/n`: this run is part i of n (`fencecheck merge` combines the parts). */
  readonly shard?: { readonly index: number; readonly count: number };
  /** In a shard: the stages run as their part i/n. */
  readonly sharded?: readonly string[];
  /** In a shard: the selected stages another shard runs. */
  readonly otherShards?: readonly string[];
  /** Stages whose report another stage's run gave (stage → the stage that ran it). */
  readonly served?: Readonly<Record<string, string>>;
  /** A merged report: the shards it was made of. */
  readonly mergedShards?: number;
}

export interface VerifyVerdict {
  /** 0 every selected stage held; 1 something failed, or a stage or a mutant cell did not run unwaived; 2 nothing ran. */
  readonly exitCode: 0 | 1 | 2;
  readonly status: 'passed' | 'failed' | 'not-run';
  /** One line per reason the verdict is not a pass (or per waived stage). */
  readonly reasons: readonly string[];
  readonly waived: readonly string[];
}

export interface VerifyReport {
  readonly schema: typeof VERIFY_SCHEMA;
  readonly tool: { readonly name: 'fencecheck'; readonly version: string };
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly durationMs: number;
  readonly host: { readonly node: string; readonly platform: string; readonly arch: string; readonly cpus: number };
  readonly git: { readonly commit: string; readonly dirty: boolean } | null;
  readonly options: VerifyOptions;
  readonly verdict: VerifyVerdict;
  readonly stages: readonly StageOutcome[];
  /** One per model TLC checked, from a live run where there was one, else the committed evidence (src/report/tlc-summary.ts). */
  readonly tlc: readonly TlcSummary[];
  readonly mutationMatrix: MutationMatrix;
  /** Every trace file a stage or mutant result names, relative to the project root (absolute when outside it). */
  readonly traces: readonly string[];
}
