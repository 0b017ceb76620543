import { MODES, NONE, PHASES, type FencingBounds, type FencingState, type Pod } from './state.js';

/**
 * The spec's invariants as predicates over one state, named as in the TLA+ spec.
 * The XState exploration checks these; the property runs check them on states observed on the real
 * keyspace; the TLC runner reports them by the same names.
 */
export const INVARIANT_NAMES = ['TypeOK', 'Inv_SingleAuthority', 'Inv_Monotonic', 'Inv_SlotRulesSafe', 'Inv_LeaseGenBounded'] as const;
export type InvariantName = (typeof INVARIANT_NAMES)[number];

const live = (owner: string): boolean => owner !== NONE;

export function typeOK(s: FencingState, b: FencingBounds): boolean {
  const gen = (g: number) => Number.isInteger(g) && g >= 0 && g <= b.maxGen;
  const owner = (o: string) => o === NONE || b.pods.includes(o as Pod);
  const pods = Object.keys(s.version);
  return (
    pods.length === b.pods.length &&
    b.pods.every((p) => PHASES.includes(s.version[p] as never)) &&
    PHASES.includes(s.target) &&
    owner(s.oldLease.owner) &&
    gen(s.oldLease.gen) &&
    owner(s.newLease.owner) &&
    gen(s.newLease.gen) &&
    gen(s.oldGen) &&
    gen(s.newGen) &&
    gen(s.lastIssued) &&
    typeof s.backfilled === 'boolean' &&
    typeof s.monoOk === 'boolean' &&
    MODES.includes(s.mode)
  );
}

/** T1: never a live lease on both the old and the new key. */
export function singleAuthority(s: FencingState): boolean {
  return !(live(s.oldLease.owner) && live(s.newLease.owner));
}

/** T2 as a one-run safety property: every issued generation exceeded all before it. */
export function monotonic(s: FencingState): boolean {
  return s.monoOk;
}

/** T3: a cluster-protocol mode only with the whole fleet on C, backfill done, old keyspace drained. */
export function slotRulesSafe(s: FencingState): boolean {
  if (s.mode === 'disabled') return true;
  return Object.values(s.version).every((v) => v === 'C') && s.backfilled && !live(s.oldLease.owner);
}

/**
 * Where live generations may come from: an old-key lease never exceeds the old counter; a new-key
 * lease never exceeds the larger counter (before the backfill B's migrate carries old generations),
 * and after the backfill never exceeds the new counter.
 */
export function leaseGenBounded(s: FencingState): boolean {
  const oldOk = !live(s.oldLease.owner) || s.oldLease.gen <= s.oldGen;
  const newOk = !live(s.newLease.owner) || s.newLease.gen <= Math.max(s.oldGen, s.newGen);
  const afterBackfill = !s.backfilled || !live(s.newLease.owner) || s.newLease.gen <= s.newGen;
  return oldOk && newOk && afterBackfill;
}

export const INVARIANTS: Readonly<Record<InvariantName, (s: FencingState, b: FencingBounds) => boolean>> = {
  TypeOK: typeOK,
  Inv_SingleAuthority: singleAuthority,
  Inv_Monotonic: monotonic,
  Inv_SlotRulesSafe: slotRulesSafe,
  Inv_LeaseGenBounded: leaseGenBounded,
};

/** Every invariant the state breaks, in INVARIANT_NAMES order. */
export function brokenInvariants(s: FencingState, b: FencingBounds): InvariantName[] {
  return INVARIANT_NAMES.filter((n) => !INVARIANTS[n](s, b));
}
