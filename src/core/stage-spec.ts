/**
 * A stage of `fencecheck verify`: the fencecheck command behind it and which verify options it
 * takes. The generic stages are verify's own (src/verify/stages.ts); a system adds its own through
 * its package (src/seam/package.ts), so verify runs a new system's stages without naming it.
 */

/** verify's --topology values: the standalone node, the cluster, both. */
export const TOPOLOGIES = ['standalone', 'cluster', 'both'] as const;
export type Topology = (typeof TOPOLOGIES)[number];

/** Options verify forwards to the stages that take them. */
export interface StageOptions {
  readonly runs?: number;
  readonly seed?: number;
  readonly topology?: Topology;
  /** TLA+ constants (`NAME=VALUE`) for exploration and the tour (TLC and parity keep the spec's config). */
  readonly constants?: readonly string[];
}

export type Forwarded = keyof StageOptions;

export interface StageSpec {
  readonly name: string;
  /** The fencecheck command line, without `--json` and without forwarded options. */
  readonly argv: readonly string[];
  /** Which verify options this command accepts. */
  readonly forwards: readonly Forwarded[];
  /** The command's name for a verify topology, where it differs (props calls the cluster run `door`). */
  readonly topologyNames?: Readonly<Partial<Record<Topology, string>>>;
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
  /** It takes `--shard i/n` (a deterministic part of its work; the n parts' reports merge: `fencecheck merge`). */
  readonly shardable?: boolean;
  /** One line for docs and the report. */
  readonly what: string;
}
