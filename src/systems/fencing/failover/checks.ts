/**
 * The drill's checkers, named as the spec names what they check (tla/fencing/failover/FencingReplication.tla),
 * so a run's findings compare with TLC's and the twin's. They read the call records (the real
 * replies, in the order each session made its calls) and the judge's findings, never which patch ran.
 * - Inv_Monotonic (T2): within a session (one lease, one generation counter), every generation told
 *   "applied" to an acquire exceeds every one told before it; a generation issued twice breaks it.
 * - Inv_SingleAuthority (T1): a lease whose release was told "applied" is never seen held again
 *   (the store handing authority back to a pod that gave it up).
 * - Outcome_Truthful: the drill's own, no spec name: the cluster matrix's judge found a reply or the final keyspace
 *   that no state left by the reported outcomes explains (an outcome was reported wrongly).
 */
import type { CallRecord } from '../cluster-matrix/drills/outcomes.js';

export const DRILL_CHECKS = ['Inv_Monotonic', 'Inv_SingleAuthority', 'Outcome_Truthful'] as const;
export type DrillCheck = (typeof DRILL_CHECKS)[number];

/** Acquires told a generation not above every one told earlier in their session (records of one session, in call order). */
export function monotonicBreaks(calls: readonly CallRecord[]): number {
  let last = 0;
  let breaks = 0;
  for (const c of calls) {
    if (c.op !== 'acquire' || c.reply?.kind !== 'ok') continue;
    if (c.reply.gen <= last) breaks++;
    last = Math.max(last, c.reply.gen);
  }
  return breaks;
}

/** Generations told "applied" to two different acquires (counted over every call, past the judge's first finding). */
export function duplicateGenerations(calls: readonly CallRecord[]): number {
  const seen = new Map<number, number>();
  for (const c of calls) if (c.reply?.kind === 'ok') seen.set(c.reply.gen, (seen.get(c.reply.gen) ?? 0) + 1);
  return [...seen.values()].filter((n) => n > 1).length;
}

/** `held` replies naming a lease whose release was told "applied" earlier. */
export function releasedSeenAgain(calls: readonly CallRecord[]): number {
  const released = new Set<string>();
  let back = 0;
  for (const c of calls) {
    if (c.op === 'release' && c.reply?.kind === 'released') released.add(`${c.owner}:${c.gen}`);
    if (c.reply?.kind === 'held' && released.has(`${c.reply.owner}:${c.reply.gen}`)) back++;
  }
  return back;
}

/** judgeSession's own duplicate finding (T2, counted above); every other finding is about truthfulness. */
const JUDGE_DUPLICATE = / issued twice \(call \d+\)$/;

export interface CheckInputs {
  readonly monotonicBreaks: number;
  readonly releasedLeasesBack: number;
  readonly findings: readonly string[];
}

/** The checks that fired, in DRILL_CHECKS' order. */
export function brokenChecks(r: CheckInputs): DrillCheck[] {
  const fired: Record<DrillCheck, boolean> = {
    Inv_Monotonic: r.monotonicBreaks > 0 || r.findings.some((f) => JUDGE_DUPLICATE.test(f)),
    Inv_SingleAuthority: r.releasedLeasesBack > 0,
    Outcome_Truthful: r.findings.some((f) => !JUDGE_DUPLICATE.test(f)),
  };
  return DRILL_CHECKS.filter((n) => fired[n]);
}
