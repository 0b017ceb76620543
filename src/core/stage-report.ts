import type { MutantResult } from './verdict.js';
import { maskDeep } from './secrets.js';

/**
 * The envelope every command prints with `--json`, and that `fencecheck verify` collects per stage.
 * `not-run` always carries a reason and is never a pass.
 */
export type StageStatus = 'passed' | 'failed' | 'not-run';

export interface StageReport<D = unknown> {
  readonly schema: 'fencecheck.stage/1';
  /** e.g. tlc, evidence, explore, parity, props, limiter, mutants:model, mutants:impl. */
  readonly stage: string;
  readonly status: StageStatus;
  readonly reason?: string;
  readonly startedAt: string;
  readonly durationMs: number;
  /** One human line: what ran and what it found. */
  readonly summary: string;
  /** Named figures (states, runs, commands, kills). */
  readonly counts?: Readonly<Record<string, number>>;
  readonly mutants?: readonly MutantResult[];
  /** Saved counterexample traces (fencecheck.trace/2), relative to the project root (absolute outside it: src/core/trace-dir.ts). */
  readonly traces?: readonly string[];
  /** The stage's own figures; what the verify reports show of it goes in here too (src/core/report-details.ts). */
  readonly details?: D;
}

/**
 * Every report is built here, so this is where secrets are masked: a password in an endpoint URL
 * (reason, summary, details, any string inside) becomes `***` (src/core/secrets.ts).
 */
export function stageReport<D>(fields: Omit<StageReport<D>, 'schema'>): StageReport<D> {
  return maskDeep({ schema: 'fencecheck.stage/1', ...fields }) as StageReport<D>;
}

/**
 * The worst of several statuses, the one rule every combining report uses: failed beats not-run
 * (a finding stays a finding when another part could not run), not-run beats passed. `none` is
 * the answer when there is no status at all: where nothing judged means nothing ran, say `not-run`.
 */
export function worstStatus(statuses: Iterable<StageStatus>, none: StageStatus = 'passed'): StageStatus {
  let seen = false;
  let notRun = false;
  for (const s of statuses) {
    if (s === 'failed') return 'failed';
    seen = true;
    if (s === 'not-run') notRun = true;
  }
  return notRun ? 'not-run' : seen ? 'passed' : none;
}

/** Several systems' counts as one stage's: one system's as they are, several's each under `<system>.`. */
export function countsPerSystem(parts: readonly { readonly system: string; readonly counts?: Readonly<Record<string, number>> | undefined }[]): Record<string, number> {
  if (parts.length === 1) return { ...parts[0]!.counts };
  return Object.fromEntries(parts.flatMap((p) => Object.entries(p.counts ?? {}).map(([k, v]) => [`${p.system}.${k}`, v])));
}
