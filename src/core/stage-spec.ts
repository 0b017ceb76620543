/**
 * The options `fencecheck verify` hands the stages that take them (src/core/stage.ts: a stage
 * declares which, and its run sees only those).
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
