/**
 * The verdict on a user's patch, from typed tour results (never from a message): the unpatched
 * tour, the patched one and, with `--safety-only`, the patched code's real graph with every
 * invariant. One function for every command that judges a patch (`conform --patch`, `mutants
 * --patch`, the impl layer's user patches).
 *
 * - killed: a check failed on the patched code — Conformance (the model predicted otherwise), TTL,
 *   ReadSide, T3, Observation, an invariant —, named by `check`.
 * - equivalent: the full tour passed and its observed digest (every reply, read-side answer, TTL
 *   class and keyspace value read back: TourResult.observed) is the unpatched one's.
 * - survived: every check held, yet the patched code showed something the unpatched did not (a
 *   reply's text, a value no rule judges) — or, checking one invariant alone, it held.
 * - departs: `--safety-only` only: the patched code departs from the model (a Conformance
 *   finding, the one named) and every invariant held in its real graph.
 * - unjudged: the unpatched code fails the very tour, so nothing about the patch can be said.
 */
import type { TourFailure, TourResult } from './result.js';

type Result = TourResult<unknown, unknown, unknown>;
type Failure = TourFailure<unknown, unknown, unknown>;

/**
 * What the verdict reads of one run of a system's checks: a tour's result, or — for a system without
 * a tour — its ordinary impl checks together (src/seam/patch-checks.ts).
 */
export interface JudgedRun {
  readonly failure: { readonly check: string; readonly message: string } | null;
  /** Whether the real code followed the model everywhere the run looked (a tour's graph; checks that all held). */
  readonly equalToModel: boolean | null;
  /** `conformance`: everything the run judges; anything else (one invariant alone, sampled checks) observes no digest. */
  readonly checks: { readonly kind: string };
  /** The observed digest (a tour's); null: nothing to call equivalent by. */
  readonly observed: string | null;
}

type FailureOf<R extends JudgedRun> = R extends Result ? Failure : NonNullable<R['failure']>;

export type PatchVerdict<R extends JudgedRun = Result> =
  | { readonly kind: 'killed'; readonly check: string; readonly failure: FailureOf<R>; readonly result: R }
  | { readonly kind: 'departs'; readonly departure: FailureOf<R>; readonly result: R }
  | { readonly kind: 'equivalent'; readonly result: R }
  | { readonly kind: 'survived'; readonly result: R }
  | { readonly kind: 'unjudged'; readonly why: string };

export interface PatchRuns<R extends JudgedRun = Result> {
  /** The unpatched code's full conformance tour (or its checks). */
  readonly base: R;
  /** The patched code's tour: full conformance, or one invariant alone (`--invariant`); or its checks. */
  readonly patched: R;
  /** `--safety-only`, after a Conformance finding: the patched code's real graph with every invariant. */
  readonly safety?: R;
}

/** Why the unpatched tour judges nothing (it failed, or its graph is not the model's); null when it passed. */
export function unpatchedFailure(base: JudgedRun): string | null {
  if (base.failure) return `${base.failure.check}: ${base.failure.message}`;
  return base.equalToModel === true ? null : "the real graph differs from the model's";
}

/** Whether a patched tour's finding is a departure from the model that `--safety-only` may excuse. */
export function isDeparture(f: Pick<Failure, 'check'>): boolean {
  return f.check === 'Conformance';
}

export function patchVerdict<R extends JudgedRun = Result>(runs: PatchRuns<R>): PatchVerdict<R> {
  const why = unpatchedFailure(runs.base);
  if (why !== null) return { kind: 'unjudged', why };
  const { patched, safety } = runs;
  const f = patched.failure as FailureOf<R> | null;
  if (f) {
    if (!isDeparture(f) || safety === undefined) return { kind: 'killed', check: f.check, failure: f, result: patched };
    if (safety.failure) return { kind: 'killed', check: safety.failure.check, failure: safety.failure as FailureOf<R>, result: safety };
    return { kind: 'departs', departure: f, result: patched };
  }
  // One invariant alone observes no read side: nothing to call equivalent by.
  if (patched.checks.kind !== 'conformance') return { kind: 'survived', result: patched };
  return patched.observed !== null && patched.observed === runs.base.observed ? { kind: 'equivalent', result: patched } : { kind: 'survived', result: patched };
}
