import { describe, expect, it } from 'vitest';
import { INVARIANT_NAMES, INVARIANTS, type InvariantName } from '../../src/systems/fencing/invariants.js';
import { canonicalKey, type FencingState } from '../../src/systems/fencing/state.js';
import { parseCanonicalKey } from '../../src/systems/fencing/tlc/canonical.js';
import { loadAllEvidence, readBaseStateDump } from '../../src/systems/fencing/tlc/evidence.js';

// TLC evaluated the TLA+ invariants; src/systems/fencing/invariants.ts must give the same answers on the
// same states, or the two definitions have drifted apart. Both directions: wherever TLC's verdict on
// (state, invariant) is known, the TypeScript predicate returns exactly that verdict — true where TLC
// found the invariant held, false where TLC reported it violated. The expected verdicts come from
// TLC's evidence (its state dump, its `violated`, the invariants of its config), never from a
// TypeScript result recorded earlier (the trace's `brokenAtEnd` is not read).
const verdicts = (s: FencingState, bounds: Parameters<(typeof INVARIANTS)['TypeOK']>[1]) =>
  Object.fromEntries(INVARIANT_NAMES.map((n) => [n, INVARIANTS[n](s, bounds)])) as Record<InvariantName, boolean>;
const allHold = Object.fromEntries(INVARIANT_NAMES.map((n) => [n, true])) as Record<InvariantName, boolean>;

describe('TypeScript invariants agree with TLC', () => {
  const dump = readBaseStateDump();
  const baseStates = new Set(dump.states);
  const mutants = loadAllEvidence().mutants;

  it('hold on every state TLC reached in the base model (TLC checked all five there and reported no violation)', () => {
    expect(dump.states.length).toBeGreaterThan(1000);
    for (const line of dump.states) {
      const s = parseCanonicalKey(line);
      expect(canonicalKey(s)).toBe(line);
      expect(verdicts(s, dump.bounds), line).toEqual(allHold);
    }
  });

  it('the evidence holds all nine mutant counterexamples, each checked by TLC with TypeOK first, then its invariant', () => {
    expect(mutants.map((e) => e.run).sort()).toEqual(['M1', 'M2', 'M3', 'M4', 'M5', 'M6', 'M7', 'M8', 'M9']);
    for (const e of mutants) {
      expect(e.outcome, e.run).toBe('invariant-violation');
      // TLC checks a config's invariants in order and reports the first that fails: TypeOK first
      // means a reported violation of the second one is also TLC's word that TypeOK held there.
      expect(e.invariants, e.run).toEqual(['TypeOK', e.violated]);
      expect(e.trace!.steps.length, e.run).toBe(e.traceLength);
    }
  });

  for (const e of mutants) {
    it(`${e.run}: every TypeScript verdict equals TLC's on every state of its counterexample`, () => {
      const steps = e.trace!.steps;
      const checked = e.invariants as InvariantName[];
      let inBase = 0;
      for (const [i, step] of steps.slice(0, -1).entries()) {
        const got = verdicts(step.state, e.bounds);
        // TLC stopped at the first state breaking a checked invariant: on every earlier state they held.
        for (const inv of checked) expect(got[inv], `${e.run} step ${i} ${inv} (TLC: held)`).toBe(true);
        // A state that is also in the base run's dump was checked against all five there.
        if (baseStates.has(canonicalKey(step.state))) {
          inBase += 1;
          expect(got, `${e.run} step ${i}, a base state (TLC: all held)`).toEqual(allHold);
        }
      }
      expect(inBase, `${e.run}: the trace starts in the base model`).toBeGreaterThan(0);
      const last = steps[steps.length - 1]!.state;
      const got = verdicts(last, e.bounds);
      // TLC's own report on the last state: its `violated` broke, TypeOK (checked before it) held.
      expect(got[e.violated as InvariantName], `${e.run} ${e.violated} on the last state (TLC: violated)`).toBe(false);
      expect(got.TypeOK, `${e.run} TypeOK on the last state (TLC: held)`).toBe(true);
      // The whole set on the last state is exactly TLC's violated plus the evidence's alsoBroken.
      const tlcBroken = new Set([e.violated!, ...(e.alsoBroken ?? [])]);
      const want = Object.fromEntries(INVARIANT_NAMES.map((n) => [n, !tlcBroken.has(n)])) as Record<InvariantName, boolean>;
      expect(got, `${e.run} on the last state`).toEqual(want);
      // Inv_Monotonic is TLC's own history variable: wherever it is among the broken, TLC's state says monoOk = FALSE.
      expect(last.monoOk, e.run).toBe(!tlcBroken.has('Inv_Monotonic'));
      // The last state is not a base state: the base run found no violation anywhere.
      expect(baseStates.has(canonicalKey(last)), e.run).toBe(false);
    });
  }
});
