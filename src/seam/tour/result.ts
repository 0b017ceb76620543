/** What a tour reports: its figures, its first failure with the path that reaches it, its digest. */
import type { ModelTotals } from './model-graph.js';
import type { Shard } from './shard.js';
import type { TourCheckFailure, TourWords } from './system.js';

/**
 * `conformance`: every step compared with the model, every check, the real graph must be the
 * model's. `invariant`: the real graph followed wherever it leads, this invariant (and the system's
 * type invariant) checked in every real state; the tour stops at the first state that breaks it.
 */
/**
 * Invariant mode with every invariant watched (a user's patch names none): the tour follows the
 * real graph and stops at the first real state that breaks any of the model's invariants, or at the
 * first finding of the system's own step checks.
 */
export const EVERY_INVARIANT = '*';

export type TourCheckMode = { readonly kind: 'conformance' } | { readonly kind: 'invariant'; readonly invariant: string };

/** One edge of a path from an initial state: the attempt made in the state before, what it did, where it led. */
export interface PathStep<S, A, D> {
  readonly attempt: A | null;
  readonly decision: D | null;
  readonly state: S;
  readonly note?: string;
}

export interface TourFailure<S, A, D> extends TourCheckFailure {
  /**
   * From an initial state to the state in which the failing attempt was made (or that breaks the
   * invariant), with the failing attempt last when it ran. Injected tours give the BFS path;
   * replayed tours the path the failing instance really walked.
   */
  readonly path: readonly PathStep<S, A, D>[];
  /** The failing attempt, its real outcome, and the model's prediction (conformance). */
  readonly attempt?: string;
  readonly real?: string;
  readonly predicted?: string;
}

export interface ActionCoverage {
  /** The model's labelled transitions of this action, and how many the tour executed. */
  modelTransitions: number;
  transitions: number;
  /** Attempts of this row the model refuses, and how many the tour executed. */
  modelRefused: number;
  refused: number;
}

export interface TourResult<S, A, D> {
  readonly system: string;
  readonly bounds: unknown;
  readonly boundsLabel: string;
  readonly words: TourWords;
  readonly checks: TourCheckMode;
  readonly reach: 'inject' | 'replay';
  readonly shard: Shard;
  /** Real states the tour executed attempts in (and, following the real graph, reached). */
  readonly states: number;
  /** Attempts checked, by what the real code decided. */
  readonly attempts: number;
  readonly transitions: number;
  readonly refused: number;
  readonly unchanged: number;
  readonly errors: number;
  readonly stateChecks: number;
  /** Fresh instances used, and attempts executed on them in all (replayed ones included). */
  readonly instances: number;
  readonly executed: number;
  /** The model's figures over this shard's states. */
  readonly model: ModelTotals;
  /** The whole model's figures and digest (equal in every shard: what a merge checks the shards against). */
  readonly whole: { readonly totals: Omit<ModelTotals, 'byAction'>; readonly digest: string };
  /** Executed against the model: states, labelled transitions and refused attempts covered. */
  readonly covered: { readonly states: number; readonly transitions: number; readonly refused: number };
  readonly byAction: Readonly<Record<string, ActionCoverage>>;
  readonly failure: TourFailure<S, A, D> | null;
  /** Whether the real graph (this shard's part) is the model's; null when the tour stopped early. */
  readonly equalToModel: boolean | null;
  /** Invariant mode with a baseline digest: whether the real graph is the baseline's (an equivalent mutant); null when stopped early. */
  readonly equalToBaseline: boolean | null;
  /** The real graph's digest (this shard's part); null when the tour stopped early. */
  readonly digest: string | null;
  /**
   * Everything the real code showed, digested like the graph (a sum over executed attempts, so in
   * any order): each attempt's reply as the real code wrote it, the system's observation of it (TTL
   * classes, the keyspace read back) and each state check's answers (the read side). Two runs of the
   * same tour with equal observed digests showed the same thing everywhere; a patch is equivalent
   * only then. Null when the tour stopped early.
   */
  readonly observed: string | null;
  /** The model graph's digest over this shard's states. */
  readonly modelDigest: string;
  /** One more than the greatest BFS depth of a state the tour executed attempts in. */
  readonly depth: number;
  readonly durationMs: number;
}
