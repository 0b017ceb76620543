/**
 * What a system supplies so that `fencecheck trace replay` can run one of its traces on the real
 * implementation: a check of the trace before anything starts, and a session that performs one step
 * at a time and reads the real state back as the spec's variables. The replay itself — the step
 * loop, the comparison with the trace's states, the invariants judged on the real state, where it
 * stops — is generic (src/trace/replay.ts) and names no system. (The generic tour will drive this
 * later; a system without one has no replay.)
 */
import type { ItfValue } from '../core/itf-value.js';
import type { MutantEntry } from '../core/manifest.js';
import type { Step, Trace } from '../core/trace-format.js';

/** What the real system did with a step: performed it, turned it down, could not tell, or did not try. */
export type ReplayStatus = 'applied' | 'refused' | 'ambiguous' | 'skipped';

export interface ReplayedStep {
  readonly status: ReplayStatus;
  /** What happened, for humans: the script's reply, the gate's reason. */
  readonly note: string;
}

/** A check the real system failed at a step, as the tour names it (`Conformance`, `TTL`, `ReadSide`, …). */
export interface ReplayFinding {
  readonly check: string;
  readonly message: string;
}

export interface ReplaySession {
  /** Where it runs, for the first line: `standalone Valkey (native) and a 3-primary cluster for the door`. */
  readonly where: string;
  /** The implementation patch applied (the trace's mutant's), repository-relative. */
  readonly patch?: string;
  /** Performs step `index` (≥ 1) of the trace on the real system; `prev` is the step before it. */
  step(index: number, step: Step, prev: Step): Promise<ReplayedStep>;
  /** The real system's state now, as the spec's variables (ITF, the system's toTla form). */
  observe(): Promise<Readonly<Record<string, ItfValue>>>;
  /** What the real system broke outside its state since the last call (a slot rule broken on the wire), one line each. */
  takeBreaches(): readonly string[];
  /**
   * The tour's findings at the step just performed and the state reached (a replay that judges as the
   * tour does: src/seam/tour/replay-path.ts); absent: the replay judges the invariants alone.
   */
  takeFindings?(): readonly ReplayFinding[];
  close(): Promise<void>;
}

export interface ReplayOpenOptions {
  /** The manifest entry of the trace's mutant (its implementation patch is applied, unless `patchFile` is given). */
  readonly mutant?: MutantEntry;
  /**
   * The trace's recorded patch file (trace.patch), absolute, already checked to be the file
   * recorded (src/seam/patch-file.ts): it is applied instead of any mutant's. A file that is no
   * patch of the system is a ReplayInputError.
   */
  readonly patchFile?: string;
  /** Where Valkey comes from (`native`, `testcontainers`, `external`, `auto`). */
  readonly provider?: string;
}

export interface TraceReplayer {
  /** Throws ReplayInputError naming the first step the real system cannot be asked to take (before any server starts). */
  check(trace: Trace): void;
  /** The real system, ready for the trace's first step. Throws ReplayUnavailableError when it cannot run here. */
  open(trace: Trace, opts: ReplayOpenOptions): Promise<ReplaySession>;
}

/** The trace asks for something the implementation has no way to do (bad input, exit 3). */
export class ReplayInputError extends Error {
  override readonly name = 'ReplayInputError';
}

/** The real system cannot run here: no Valkey, no patch for the mutant (not run, exit 2). */
export class ReplayUnavailableError extends Error {
  override readonly name = 'ReplayUnavailableError';
}
