/**
 * The one JSON document a `fencecheck verify` run writes (reports/verify.json), schema
 * `fencecheck.verify/1`, documented field by field in docs/report-schema.md. Every other output
 * (JUnit, Markdown, HTML) is rendered from this document alone.
 */
import type { G2Summary } from './g2-summary.js';
import type { Layer, MutantSystem } from '../core/manifest.js';
import type { MutantResult } from '../core/verdict.js';
import type { CellVerdict, MutationScore } from '../core/mutation-score.js';
import type { StageReport } from '../core/stage-report.js';

export const VERIFY_SCHEMA = 'fencecheck.verify/1' as const;

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

/** The TLC figures an auditor reads first, gathered from the tlc and evidence stages. */
export interface TlcSummary {
  /** `live` from a TLC run on this machine, `evidence` from the committed evidence. */
  readonly from: 'live' | 'evidence';
  readonly specSha256?: string;
  readonly tlcVersion?: string;
  readonly bounds?: unknown;
  readonly generated?: number;
  readonly distinct?: number;
  readonly depth?: number;
  readonly invariants?: readonly string[];
  readonly durationMs?: number;
  readonly outcome?: string;
  /** The base config TLC checked and its SHA-256 (the evidence pins both). */
  readonly config?: string;
  readonly configSha256?: string;
  /** SHA-256 and size of the state dump and the labelled edge list parity compares against. */
  readonly dumps?: { readonly states?: TlcDump; readonly edges?: TlcDump };
  /** The TLC command line as recorded (temporary paths as `<tmp>`), and what its flags mean. */
  readonly command?: string;
  readonly flags?: TlcFlags;
}

export interface TlcDump {
  readonly file?: string;
  readonly sha256: string;
  readonly count?: number;
}

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

/** executed / model total: how much of the model the conformance tour executed on real Valkey. */
export interface ConformFigure {
  readonly executed: number;
  readonly model: number;
  /** 100 × executed / model, one decimal, rounded down (so 100.0 means every one); 100 when the model has none. */
  readonly percent: number;
}

/** One action of the model, or one attempt kind (acquire, renew, …) or gate step the model refuses. */
export interface ConformActionRow {
  readonly action: string;
  readonly transitions: ConformFigure;
  readonly refused: ConformFigure;
  /** Transitions and refused attempts together. */
  readonly percent: number;
  /** Every model transition and every refused attempt of this action was executed. */
  readonly complete: boolean;
  /** The first mismatch was an attempt of this kind (or gate step). */
  readonly mismatch: boolean;
}

/** The first (state, attempt) where the real system and the model parted, or the first state breaking a check. */
export interface ConformFailure {
  /** `Conformance`, `TTL`, `ReadSide`, `T3_SlotBreach`, `Observation`, or an invariant name. */
  readonly check: string;
  readonly message: string;
  /** The attempt (`acquire(p1)`, `renew(p2@3)`, `AdvanceTarget`), what the real system did, what the model predicts. */
  readonly attempt?: string;
  readonly real?: string;
  readonly predicted?: string;
  /** Steps from Init to the failing state or attempt. */
  readonly steps?: number;
}

/** The conform stage's figures, read from its StageReport (`counts` and `details`). */
export interface ConformSummary {
  readonly status: OutcomeStatus;
  readonly reason?: string;
  readonly summary: string;
  /** `conformance` (every decision and successor against the model) or `<invariant> alone`. */
  readonly checks?: string;
  readonly bounds?: { readonly pods: readonly string[]; readonly maxGen: number };
  readonly coverage?: { readonly states: ConformFigure; readonly transitions: ConformFigure; readonly refused: ConformFigure };
  /** Real states reached (more than the model's when a mutated script leaves its graph), attempts made. */
  readonly realStates?: number;
  readonly attempts?: number;
  readonly depth?: number;
  readonly tourMs?: number;
  /** The real graph equals the model's (every edge, every decision); null when the tour stopped early. */
  readonly equalToModel?: boolean | null;
  readonly actions?: readonly ConformActionRow[];
  readonly failure?: ConformFailure | null;
  /** The saved first-mismatch trace (relative to the project root) and the command that replays it. */
  readonly tracePath?: string;
  readonly replay?: string;
}

export interface VerifyOptions {
  readonly stages: readonly string[];
  /** Stages left out by --stages/--skip (shown, not run, not a failure). */
  readonly notSelected: readonly string[];
  readonly runs?: number;
  readonly seed?: number;
  readonly topology?: string;
  readonly pods?: number;
  readonly maxGen?: number;
  readonly allowNotRun: readonly string[];
  readonly jobs: number;
  readonly stageTimeoutMs: number;
  readonly out: string;
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
  readonly tlc: TlcSummary | null;
  readonly mutationMatrix: MutationMatrix;
  /** The conformance tour's coverage and first mismatch; null when the conform stage was not selected. */
  readonly conform?: ConformSummary | null;
  /** The G2 conformance matrix (src/report/g2-summary.ts); null when the g2 stage was not selected. */
  readonly g2?: G2Summary | null;
  /** Every trace file a stage or mutant result names, relative to the project root. */
  readonly traces: readonly string[];
}
