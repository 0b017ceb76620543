/**
 * What a property run checks after every step, in this order (the first that fails names the run's
 * failure): the spec's invariants on the real keyspace (T1, T2, T3 as Inv_SlotRulesSafe, ...), T3 on
 * the wire (no CROSSSLOT, no old key after the door), the real keyspace against the model's
 * prediction, and the read-side rules (lookup, known_generation, validate_fenced_header).
 */
import { INVARIANTS, INVARIANT_NAMES, type InvariantName } from '../../src/systems/fencing/invariants.js';
import { NONE, type FencingBounds, type FencingState, type Lease, type Phase } from '../../src/systems/fencing/state.js';
import type { FencingDriver } from '../../src/systems/fencing/driver.js';

export interface CheckSet {
  /** Invariants checked on the observed state (a mutant run checks its expected one alone, with TypeOK). */
  readonly invariants: readonly InvariantName[];
  readonly slotRules: boolean;
  readonly conformance: boolean;
  readonly readSide: boolean;
}

export const ALL_CHECKS: CheckSet = { invariants: INVARIANT_NAMES, slotRules: true, conformance: true, readSide: true };

/** The checks of a mutant run: the expected invariant alone, with TypeOK (../shared/design/fencing-model.md). */
export function invariantAlone(name: InvariantName): CheckSet {
  return { invariants: ['TypeOK', name].filter((n, i, a) => a.indexOf(n) === i) as InvariantName[], slotRules: false, conformance: false, readSide: false };
}

export interface CheckFailure {
  /** An invariant name, `T3_SlotBreach`, `Conformance` or `ReadSide`. */
  readonly check: string;
  readonly message: string;
}

export function firstBrokenInvariant(s: FencingState, b: FencingBounds, names: readonly InvariantName[]): CheckFailure | null {
  for (const n of INVARIANT_NAMES) {
    if (names.includes(n) && !INVARIANTS[n](s, b)) return { check: n, message: `${n} violated on the real keyspace` };
  }
  return null;
}

const live = (l: Lease) => l.owner !== NONE;
const show = (l: Lease | null) => (l && live(l) ? `${l.owner}/${l.gen}` : 'none');

/** The lease a version's lookup must return, from the observed keyspace (table row "lookup"). */
export function expectedLookup(v: Phase, s: FencingState): Lease | null {
  const pick = v === 'O' ? s.oldLease : v === 'C' ? s.newLease : live(s.newLease) ? s.newLease : s.oldLease;
  return live(pick) ? pick : null;
}

/** The table row "known_generation". */
export function expectedKnown(v: Phase, s: FencingState): number {
  return v === 'O' ? s.oldGen : v === 'C' ? s.newGen : Math.max(s.oldGen, s.newGen);
}

/**
 * The read-side rules for every version a pod runs now (only C after the door): lookup and
 * known_generation follow the table; the holder's frame validates exactly when it is not below the
 * known generation; a frame with a generation below the last issued one never validates.
 */
export async function checkReadSide(driver: FencingDriver, s: FencingState): Promise<CheckFailure | null> {
  const versions = [...new Set(Object.values(s.version))].filter((v) => s.mode === 'disabled' || v === 'C');
  for (const v of versions) {
    const c = driver.client(v);
    const [found, known] = await Promise.all([c.lookup(), c.knownGeneration()]);
    const want = expectedLookup(v, s);
    const got = found.kind === 'lease' ? { owner: found.owner as Lease['owner'], gen: found.gen } : null;
    if (show(got) !== show(want)) return { check: 'ReadSide', message: `${v}/lookup returned ${show(got)}, the table says ${show(want)}` };
    if (known !== expectedKnown(v, s)) return { check: 'ReadSide', message: `${v}/known_generation returned ${known}, the table says ${expectedKnown(v, s)}` };
    if (want) {
      const r = await c.validate(want.owner, want.gen);
      if (r.valid !== want.gen >= known) return { check: 'ReadSide', message: `${v}/validate_fenced_header(${show(want)}) = ${r.reason} with known generation ${known}` };
    }
    if (s.lastIssued >= 1) {
      const owner = want?.owner ?? driver.bounds.pods[0]!;
      const stale = s.lastIssued - 1;
      const r = await c.validate(owner, stale);
      if (r.valid) return { check: 'ReadSide', message: `${v}/validate_fenced_header passed a stale frame ${owner}/${stale} (last issued ${s.lastIssued})` };
    }
  }
  return null;
}
