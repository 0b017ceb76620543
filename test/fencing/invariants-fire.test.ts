import { describe, expect, it } from 'vitest';
import { brokenInvariants, INVARIANT_NAMES, INVARIANTS, type InvariantName } from '../../src/systems/fencing/invariants.js';
import { DEFAULT_BOUNDS, initialState, type FencingState } from '../../src/systems/fencing/state.js';

// Every invariant must be able to fail: for each one, the smallest hand-written states that break it
// (one changed variable or lease away from a state where everything holds), each breaking that
// invariant and nothing else, beside the boundary state next to it that must still hold. TLC's
// counterexamples never break TypeOK or Inv_LeaseGenBounded, so these are their only failing inputs.
const b = DEFAULT_BOUNDS; // Pods = {p1, p2, p3}, MaxGen = 4
const init = initialState(b);
const at = (patch: Partial<FencingState>): FencingState => ({ ...init, ...patch });

interface Case {
  readonly why: string;
  readonly breaks: FencingState;
  /** The neighbouring state that stays within the invariant. */
  readonly holds: FencingState;
}

const CASES: Readonly<Record<InvariantName, readonly Case[]>> = {
  TypeOK: [
    { why: 'a counter above MaxGen', breaks: at({ newGen: 5 }), holds: at({ newGen: 4 }) },
    { why: 'a negative counter', breaks: at({ oldGen: -1 }), holds: at({ oldGen: 0 }) },
    { why: 'a non-integer lastIssued', breaks: at({ lastIssued: 0.5, monoOk: true }), holds: at({ lastIssued: 0 }) },
    {
      why: 'a live lease generation above MaxGen',
      breaks: at({ oldLease: { owner: 'p1', gen: 5 }, oldGen: 5, lastIssued: 4 }),
      holds: at({ oldLease: { owner: 'p1', gen: 4 }, oldGen: 4, lastIssued: 4 }),
    },
    { why: 'an owner outside Pods', breaks: at({ oldLease: { owner: 'p4', gen: 1 }, oldGen: 1, lastIssued: 1 }), holds: at({ oldLease: { owner: 'p3', gen: 1 }, oldGen: 1, lastIssued: 1 }) },
    { why: 'a pod missing from version', breaks: at({ version: { p1: 'O', p2: 'O' } }), holds: init },
    { why: 'a version outside the phases', breaks: at({ version: { p1: 'O', p2: 'O', p3: 'D' as never } }), holds: at({ version: { p1: 'O', p2: 'O', p3: 'A' } }) },
    { why: 'a target outside the phases', breaks: at({ target: 'X' as never }), holds: at({ target: 'C' }) },
    {
      why: 'a mode outside the modes (fleet on C, backfilled, so T3 holds)',
      breaks: at({ version: { p1: 'C', p2: 'C', p3: 'C' }, target: 'C', backfilled: true, mode: 'open' as never }),
      holds: at({ version: { p1: 'C', p2: 'C', p3: 'C' }, target: 'C', backfilled: true, mode: 'enabled' }),
    },
    { why: 'a non-boolean backfilled', breaks: at({ backfilled: 1 as never }), holds: init },
  ],
  Inv_SingleAuthority: [
    {
      why: 'a live lease on both keys',
      breaks: at({ oldLease: { owner: 'p1', gen: 1 }, newLease: { owner: 'p2', gen: 2 }, oldGen: 1, newGen: 2, lastIssued: 2 }),
      holds: at({ oldLease: { owner: 'p1', gen: 1 }, oldGen: 1, newGen: 2, lastIssued: 2 }),
    },
  ],
  Inv_Monotonic: [{ why: 'a re-issued generation (monoOk false)', breaks: at({ monoOk: false }), holds: init }],
  Inv_SlotRulesSafe: [
    { why: 'compatible mode with the fleet on O', breaks: at({ mode: 'compatible' }), holds: at({ mode: 'disabled' }) },
    {
      why: 'enabled mode with all on C and backfilled, but a live old lease',
      breaks: at({ version: { p1: 'C', p2: 'C', p3: 'C' }, target: 'C', backfilled: true, mode: 'enabled', oldLease: { owner: 'p1', gen: 1 }, oldGen: 1, lastIssued: 1 }),
      holds: at({ version: { p1: 'C', p2: 'C', p3: 'C' }, target: 'C', backfilled: true, mode: 'enabled', oldGen: 1, lastIssued: 1 }),
    },
    {
      why: 'compatible mode before the backfill',
      breaks: at({ version: { p1: 'C', p2: 'C', p3: 'C' }, target: 'C', mode: 'compatible' }),
      holds: at({ version: { p1: 'C', p2: 'C', p3: 'C' }, target: 'C', backfilled: true, mode: 'compatible' }),
    },
  ],
  Inv_LeaseGenBounded: [
    {
      why: 'an old-key lease above the old counter',
      breaks: at({ oldLease: { owner: 'p1', gen: 2 }, oldGen: 1, lastIssued: 2 }),
      holds: at({ oldLease: { owner: 'p1', gen: 1 }, oldGen: 1, lastIssued: 2 }),
    },
    {
      why: 'a live new lease with gen > max(oldGen, newGen)',
      breaks: at({ newLease: { owner: 'p1', gen: 3 }, oldGen: 1, newGen: 2, lastIssued: 3 }),
      holds: at({ newLease: { owner: 'p1', gen: 2 }, oldGen: 1, newGen: 2, lastIssued: 3 }),
    },
    {
      why: 'after the backfill, a new lease above the new counter (though within the old one)',
      breaks: at({ version: { p1: 'B', p2: 'B', p3: 'B' }, target: 'B', backfilled: true, newLease: { owner: 'p1', gen: 2 }, oldGen: 2, newGen: 1, lastIssued: 2 }),
      holds: at({ version: { p1: 'B', p2: 'B', p3: 'B' }, target: 'B', backfilled: false, newLease: { owner: 'p1', gen: 2 }, oldGen: 2, newGen: 1, lastIssued: 2 }),
    },
  ],
};

describe('every invariant can fail on the smallest state that breaks it', () => {
  it('the initial state breaks nothing', () => {
    expect(brokenInvariants(init, b)).toEqual([]);
  });

  it('there is a case for every invariant', () => {
    expect(Object.keys(CASES).sort()).toEqual([...INVARIANT_NAMES].sort());
  });

  for (const name of INVARIANT_NAMES) {
    for (const c of CASES[name]) {
      it(`${name} fails on ${c.why}, and only ${name}`, () => {
        expect(INVARIANTS[name](c.breaks, b)).toBe(false);
        expect(brokenInvariants(c.breaks, b)).toEqual([name]);
      });
      it(`${name} holds next to it (${c.why}: the boundary state)`, () => {
        expect(INVARIANTS[name](c.holds, b)).toBe(true);
        expect(brokenInvariants(c.holds, b)).toEqual([]);
      });
    }
  }

  it('TypeOK reads the bounds: gen 4 is out of type under MaxGen 3, and p3 under two pods', () => {
    const s = at({ newGen: 4 });
    expect(INVARIANTS.TypeOK(s, b)).toBe(true);
    expect(INVARIANTS.TypeOK(s, { ...b, maxGen: 3 })).toBe(false);
    expect(INVARIANTS.TypeOK(init, { pods: ['p1', 'p2'], maxGen: 4 })).toBe(false);
  });
});
