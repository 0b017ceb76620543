import { describe, expect, it } from 'vitest';
import { brokenInvariants, INVARIANTS } from '../../src/fencing/invariants.js';
import { canonicalKey } from '../../src/fencing/state.js';
import { parseCanonicalKey } from '../../src/tlc/canonical.js';
import { loadAllEvidence, readBaseStateDump } from '../../src/tlc/evidence.js';

// TLC evaluated the TLA+ invariants; src/fencing/invariants.ts must give the same answers on the
// same states, or the two definitions have drifted apart.
describe('TypeScript invariants agree with TLC', () => {
  it('hold on every state TLC reached in the base model (it reported no violation)', () => {
    const dump = readBaseStateDump();
    for (const line of dump.states) {
      const s = parseCanonicalKey(line);
      expect(canonicalKey(s)).toBe(line);
      expect(brokenInvariants(s, dump.bounds), line).toEqual([]);
    }
  });

  it('on each mutant trace: the checked invariants hold until the last state, which breaks the one TLC named', () => {
    for (const e of loadAllEvidence().mutants) {
      const steps = e.trace!.steps;
      const checked = e.invariants as (keyof typeof INVARIANTS)[];
      for (const step of steps.slice(0, -1)) {
        for (const inv of checked) expect(INVARIANTS[inv](step.state, e.bounds), `${e.run} ${inv} before the end`).toBe(true);
      }
      const broken = brokenInvariants(steps[steps.length - 1]!.state, e.bounds);
      expect(broken, e.run).toContain(e.violated);
      expect(broken, e.run).toEqual(e.trace!.brokenAtEnd);
    }
  });
});
