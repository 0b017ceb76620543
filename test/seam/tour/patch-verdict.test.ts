/**
 * The verdict on a patch from typed tour results (src/seam/tour/patch-verdict.ts), on the toy
 * lock's tour: each bug killed by the check it breaks, a rewording equivalent, a reply said in
 * other words survived (the observed digest, not the decision digest, tells it: comparing the
 * graph digests alone calls it equivalent), and with the safety run a departure that keeps every
 * invariant is `departs`, one that breaks one killed by it.
 */
import { describe, expect, it } from 'vitest';
import { EVERY_INVARIANT, everyInvariantModel, namedEveryFailure } from '../../../src/seam/tour/entry.js';
import { patchVerdict, type PatchVerdict } from '../../../src/seam/tour/patch-verdict.js';
import type { TourResult } from '../../../src/seam/tour/result.js';
import { runTour } from '../../../src/seam/tour/tour.js';
import { toySystem, type LockBug } from './toy.js';

type Result = TourResult<unknown, unknown, unknown>;
const full = async (bug?: LockBug): Promise<Result> => (await runTour(toySystem(bug ? { bug } : {}), { checks: { kind: 'conformance' } })) as unknown as Result;
const safety = async (bug: LockBug): Promise<Result> => {
  const sys = toySystem({ bug });
  const r = await runTour({ ...sys, model: everyInvariantModel(sys.model) }, { checks: { kind: 'invariant', invariant: EVERY_INVARIANT } });
  // As a system's tour entry names it: by the invariants the state breaks.
  return { ...r, failure: r.failure ? namedEveryFailure(sys.model, r.failure) : null } as unknown as Result;
};
const named = (v: PatchVerdict) => (v.kind === 'killed' ? `killed by ${v.check}` : v.kind === 'departs' ? `departs at ${v.departure.attempt}` : v.kind);

describe('one verdict on a patch, from typed tour results', () => {
  it('names the check that kills, calls only an identical observation equivalent, and a reply said otherwise survived', async () => {
    const base = await full();
    const verdicts: Record<string, string> = {};
    for (const bug of ['release-any-holder', 'silent-audit', 'peek-lies', 'unreadable', 'reworded', 'chatty-release'] as const) verdicts[bug] = named(patchVerdict({ base, patched: await full(bug) }));
    expect(verdicts).toEqual({
      'release-any-holder': 'killed by Conformance',
      'silent-audit': 'killed by Audit',
      'peek-lies': 'killed by Peek',
      unreadable: 'killed by Observation',
      reworded: 'equivalent',
      'chatty-release': 'survived',
    });
    // The chatty release's graph is the unpatched one: only what it said differs.
    const chatty = await full('chatty-release');
    expect(chatty.digest).toBe(base.digest);
    expect(chatty.observed).not.toBe(base.observed);
  });

  it('with the safety run: a departure keeping every invariant departs, one breaking an invariant is killed by it', async () => {
    const base = await full();
    const departs = patchVerdict({ base, patched: await full('release-any-holder'), safety: await safety('release-any-holder') });
    expect(named(departs)).toMatch(/^departs at release\(/);
    const broken = patchVerdict({ base, patched: await full('bump-past-max'), safety: await safety('bump-past-max') });
    expect(named(broken)).toBe('killed by Inv_Bounded');
    // A check besides conformance is never excused by the safety run.
    expect(named(patchVerdict({ base, patched: await full('silent-audit'), safety: await safety('silent-audit') }))).toBe('killed by Audit');
  });

  it('judges nothing when the unpatched code fails the very tour', async () => {
    const broken = await full('peek-lies');
    expect(patchVerdict({ base: broken, patched: await full() })).toEqual({ kind: 'unjudged', why: expect.stringMatching(/^Peek: whoHolds\(\)/) });
  });
});
