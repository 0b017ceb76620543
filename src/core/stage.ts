/**
 * A stage is an object: what verify gates on, declared once — verify's own over every system
 * (src/stages/), a system's own in its package (src/seam/package.ts `stages`) — and run through one
 * entry, `fencecheck stage NAME --json`, in a worker process of its own (verify starts it in its own
 * process group; src/verify/run.ts). The entry imports the object and calls `run`: no command's
 * argv stands between verify and a verdict, and the options a stage takes are typed, so verify
 * cannot hand it one it refuses.
 */
import type { StageReport } from './stage-report.js';
import type { StageOptions, Topology } from './stage-spec.js';

export type { StageOptions, Topology } from './stage-spec.js';

/** The verify options a stage may take (`--runs`, `--seed`, `--topology`, `--const`). */
export type StageOption = keyof StageOptions;

/** Part i of n of a shardable stage's work (the n parts' reports merge: `fencecheck merge`). */
export interface StagePart {
  readonly index: number;
  readonly count: number;
}

/**
 * What a stage's run gets: the verify options it declared in `takes`, nothing else; its part when it
 * is shardable; and, for a stage that serves another (`serves`), where to write that one's report.
 */
export type StageParams<K extends StageOption = StageOption> = Pick<StageOptions, K> & {
  readonly shard?: StagePart;
  readonly serveReport?: string;
};

/** Where a stage's lines go: progress on stderr (verify shows the last one and keeps all in the stage's log). */
export interface StageIO {
  log(line: string): void;
  /** A line for the person on stderr whatever stdout carries (a part not run, with why); log when absent. */
  warn?(line: string): void;
}

/** How verify schedules a stage: what it is, not how it runs. */
export interface StageTraits {
  readonly name: string;
  /** One line for docs and the report. */
  readonly what: string;
  /** Heavy stages (CPU, Valkey, Java) take one of the `--jobs` slots; light ones run alongside. */
  readonly heavy: boolean;
  /** The mutant layer whose results this stage reports, if any. */
  readonly layer?: string;
  /** It records the observed behaviour of its runs (for trace validation, src/seam/tracecheck/store.ts). */
  readonly recordsTraces?: boolean;
  /** It reads what the recording stages recorded: verify starts it only after every selected one finished. */
  readonly afterRecorders?: boolean;
  /**
   * The stage whose tool this stage runs too (tracecheck runs TLC): `--allow-not-run tlc` then also
   * accepts this stage not running, as a machine without TLC cannot run either.
   */
  readonly sameToolAs?: string;
  /** It takes a part (`--shard i/n`): a deterministic share of its work whose n reports merge. */
  readonly shardable?: boolean;
  /** The stage whose report its run also writes (the impl layer's unpatched tours are conform's). */
  readonly serves?: string;
}

export interface Stage<K extends StageOption = StageOption> extends StageTraits {
  /** The verify options it takes; verify forwards only these, and the entry refuses any other. */
  readonly takes: readonly K[];
  run(params: StageParams<K>, io: StageIO): Promise<StageReport>;
}

/**
 * A stage as declared: typed by the options it takes (its `run` sees only those), stored in the
 * catalogue as a `Stage` of any option.
 */
export function defineStage<K extends StageOption = never>(stage: Stage<K>): Stage {
  return stage as unknown as Stage;
}

/** The verify options of `opts` that `stage` takes, and only those. */
export function stageParams(stage: Pick<Stage, 'takes'>, opts: StageOptions): StageOptions {
  const out: Record<string, unknown> = {};
  for (const k of stage.takes) if (opts[k] !== undefined) out[k] = opts[k];
  return out as StageOptions;
}

/** A stage's report was given bad input (a malformed manifest, an unknown mutant): exit 3 at the entry. */
export class StageInputError extends Error {}

/** The flag of each verify option at the stage entry. */
export const STAGE_OPTION_FLAGS: Readonly<Record<StageOption, string>> = { runs: '--runs', seed: '--seed', topology: '--topology', constants: '--const' };

/** The entry's argv for one stage (after `bin/fencecheck.mjs`): `stage NAME`, its options, `--json`. */
export function stageEntryArgv(stage: Pick<Stage, 'name' | 'takes'>, opts: StageOptions, part?: StagePart, serveReport?: string): string[] {
  const argv = ['stage', stage.name];
  const given = stageParams(stage, opts);
  for (const key of stage.takes) {
    const v = given[key];
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const x of v as readonly string[]) argv.push(STAGE_OPTION_FLAGS[key], x);
    else argv.push(STAGE_OPTION_FLAGS[key], String(v as number | Topology));
  }
  if (part && part.count > 1) argv.push('--shard', `${part.index}/${part.count}`);
  if (serveReport !== undefined) argv.push('--serve-report', serveReport);
  argv.push('--json');
  return argv;
}
