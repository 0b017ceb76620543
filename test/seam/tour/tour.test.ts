/**
 * The tour engine on a toy lock (toy.ts), injected and replayed: the correct real side's graph is
 * the model's with the same figures and digest either way; each named bug turns its named check
 * red; invariant mode kills, survives and finds equivalence; the verdict does not depend on the
 * order replies arrive in; a fault rejects with nothing left in flight.
 */
import { describe, expect, it } from 'vitest';
import { runTour, TourSetupError, type TourOptions } from '../../../src/seam/tour/tour.js';
import type { TourResult } from '../../../src/seam/tour/result.js';
import { toySystem, type LockBug, type ToyOptions } from './toy.js';

const CONFORMANCE: TourOptions = { checks: { kind: 'conformance' } };
const BOUNDED: TourOptions = { checks: { kind: 'invariant', invariant: 'Inv_Bounded' } };

async function tour(toy: ToyOptions, options: TourOptions = CONFORMANCE) {
  const sys = toySystem(toy);
  const result = await runTour(sys, options);
  return { result, sys };
}

const summary = (r: TourResult<unknown, unknown, unknown>) => ({
  failure: r.failure ? { check: r.failure.check, attempt: r.failure.attempt, steps: r.failure.path.length - 1 } : null,
  attempts: r.attempts,
  covered: r.covered,
  digest: r.digest,
});

describe.each(['inject', 'replay'] as const)('the tour engine, reached by %s', (reach) => {
  it('the correct real side: the real graph is the model graph, every refusal and every check included', async () => {
    const { result: r, sys } = await tour({ reach });
    expect(r.failure).toBeNull();
    // 3 holders × counts 0..3; 6 attempts each; 22 labelled transitions, 2 saturated bumps, 48 refusals.
    expect(r.model).toMatchObject({ states: 12, attempts: 72, transitions: 22, unchanged: 2, refused: 48 });
    expect(r.covered).toEqual({ states: 12, transitions: 22, refused: 48 });
    expect({ attempts: r.attempts, transitions: r.transitions, unchanged: r.unchanged, refused: r.refused, stateChecks: r.stateChecks }).toEqual({
      attempts: 72,
      transitions: 22,
      unchanged: 2,
      refused: 48,
      stateChecks: 12,
    });
    for (const [row, c] of Object.entries(r.byAction)) expect([row, c.transitions, c.refused]).toEqual([row, c.modelTransitions, c.modelRefused]);
    expect(r.equalToModel).toBe(true);
    expect(r.digest).toBe(r.whole.digest);
    expect(r.depth).toBe(6); // (a,3) is 4 attempts from Init; (none,3) one more; +1
    expect(sys.server.live()).toBe(0);
    if (reach === 'inject') expect(r.instances).toBe(72 + 12);
    // Replayed: a path cover, far fewer instances than attempts (refusals cost no replay).
    else expect(r.instances).toBeLessThan(30);
  });

  const bugs: { bug: LockBug; check: string; attempt?: string }[] = [
    { bug: 'release-any-holder', check: 'Conformance', attempt: 'release(b)' },
    { bug: 'bump-past-max', check: 'Conformance', attempt: 'bump(a)' },
    { bug: 'bump-by-two', check: 'Conformance', attempt: 'bump(a)' },
    { bug: 'refuse-at-max', check: 'Conformance', attempt: 'bump(a)' },
    { bug: 'silent-audit', check: 'Audit', attempt: 'bump(a)' },
    { bug: 'peek-lies', check: 'Peek' },
    { bug: 'unreadable', check: 'Observation' },
  ];
  it.each(bugs)('the bug $bug turns $check red', async ({ bug, check, attempt }) => {
    const { result: r, sys } = await tour({ reach, bug });
    expect(r.failure?.check, r.failure?.message).toBe(check);
    if (attempt) expect(r.failure?.attempt).toBe(attempt);
    expect(r.failure!.path[0]!.attempt).toBeNull();
    expect(r.equalToModel).toBeNull();
    expect(r.digest).toBeNull();
    expect(r.attempts).toBeLessThan(72); // it stopped at the first failure
    expect(sys.server.live()).toBe(0);
  });

  it('invariant mode: a bump past MAX is killed by Inv_Bounded on the shortest path (acquire, 4 bumps)', async () => {
    const { result: r } = await tour({ reach, bug: 'bump-past-max' }, BOUNDED);
    expect(r.failure?.check).toBe('Inv_Bounded');
    expect(r.failure!.path.map((p) => (p.attempt ? `${p.attempt.op}(${p.attempt.p})` : 'Init'))).toEqual(['Init', 'acquire(a)', 'bump(a)', 'bump(a)', 'bump(a)', 'bump(a)']);
    expect(r.failure!.path.at(-1)!.state).toEqual({ holder: 'a', count: 4 });
  });

  it('invariant mode: a graph that differs survives; one that does not is the baseline (equivalent)', async () => {
    const base = (await tour({ reach })).result;
    const noB = (await tour({ reach, bug: 'no-b' }, { ...BOUNDED, baseline: base.digest! })).result;
    expect(noB.failure).toBeNull();
    expect(noB.equalToBaseline).toBe(false);
    expect(noB.states).toBe(8); // b never holds the lock: counts 0..3, held by a or by no one
    // The same states and successors, another decision in two states: the digest tells them apart.
    const refusing = (await tour({ reach, bug: 'refuse-at-max' }, { ...BOUNDED, baseline: base.digest! })).result;
    expect(refusing.failure).toBeNull();
    expect(refusing.states).toBe(12);
    expect(refusing.equalToBaseline).toBe(false);
    const same = (await tour({ reach, bug: 'reworded' }, { ...BOUNDED, baseline: base.digest! })).result;
    expect(same.equalToBaseline).toBe(true);
    expect(same.equalToModel).toBe(true);
  });

  it('the verdict does not depend on the order replies arrive in, nor on how many are in flight', async () => {
    const runs = await Promise.all([
      tour({ reach, bug: 'release-any-holder', seed: 1 }),
      tour({ reach, bug: 'release-any-holder', seed: 2 }, { ...CONFORMANCE, concurrency: 1 }),
      tour({ reach, bug: 'release-any-holder', seed: 3 }, { ...CONFORMANCE, concurrency: 64 }),
    ]);
    const [first, ...rest] = runs.map((x) => summary(x.result));
    for (const s of rest) expect(s).toEqual(first);
    const ok = await Promise.all([tour({ reach, seed: 4 }), tour({ reach, seed: 5 }, { ...CONFORMANCE, concurrency: 3 })]);
    expect(summary(ok[0].result)).toEqual(summary(ok[1].result));
  });

  it('a fault rejects the tour, once nothing is in flight', async () => {
    const sys = toySystem({ reach, bug: 'fault' });
    await expect(runTour(sys, CONFORMANCE)).rejects.toThrow(/went away/);
    expect(sys.server.live()).toBe(0);
  });
});

describe('what only a replayed tour can see', () => {
  it('a real side that does not start the same every time: injected it passes, replayed it is red', async () => {
    expect((await tour({ reach: 'inject', bug: 'drifting-replay' })).result.failure).toBeNull();
    expect((await tour({ reach: 'replay', bug: 'drifting-replay' })).result.failure?.check).toBe('Conformance');
    expect((await tour({ reach: 'replay', bug: 'drifting-replay' }, BOUNDED)).result.failure?.check).toBe('Replay');
  });

  it('injected and replayed tours of the same code have the same digest', async () => {
    const [a, b] = await Promise.all([tour({ reach: 'inject' }), tour({ reach: 'replay' })]);
    expect(a.result.digest).toBe(b.result.digest);
    const [c, d] = await Promise.all([tour({ reach: 'inject', bug: 'no-b' }, BOUNDED), tour({ reach: 'replay', bug: 'no-b' }, BOUNDED)]);
    expect(c.result.digest).toBe(d.result.digest);
    expect(c.result.digest).not.toBe(a.result.digest);
  });
});

describe('setup errors', () => {
  it('a shard of an invariant-alone tour, or an unknown invariant, is refused before anything runs', async () => {
    const sys = toySystem();
    await expect(runTour(sys, { ...BOUNDED, shard: { index: 1, count: 2 } })).rejects.toThrow(TourSetupError);
    await expect(runTour(sys, { checks: { kind: 'invariant', invariant: 'Inv_Nope' } })).rejects.toThrow(/no invariant Inv_Nope/);
    expect(sys.server.made()).toBe(0);
  });
});
