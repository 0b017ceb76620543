/**
 * A tour's counterexample replayed with the tour's judgement (src/seam/tour/replay-path.ts), on the
 * toy lock: the tour finds each named bug, its path is replayed step by step on the same buggy real
 * side, and the replay must fail the same check at the same step — Conformance, the step check and
 * the state check alike —, by injection and by replay. (An Observation finding's path ends before
 * the attempt whose state could not be read, which a trace step cannot hold: not replayed yet.) The unbuggy lock replays the
 * same path with no finding; a replay that judges the invariants alone finds none of these.
 */
import { describe, expect, it } from 'vitest';
import type { Step } from '../../../src/core/trace-format.js';
import type { ReplayFinding } from '../../../src/seam/replay.js';
import type { PathStep } from '../../../src/seam/tour/result.js';
import { replayJudgement, tourPathSession, type TourReplayJudgement } from '../../../src/seam/tour/replay-path.js';
import { runTour } from '../../../src/seam/tour/tour.js';
import { lockModel, toySystem, type LockAttempt, type LockBug, type LockDecision, type LockState } from './toy.js';

type LockPath = readonly PathStep<LockState, LockAttempt, LockDecision>[];

const asSteps = (path: LockPath): Step[] =>
  path.map((p) => ({ action: p.attempt === null ? 'Init' : lockModel.attemptLabel(p.attempt), params: {}, state: { holder: p.state.holder ?? 'none', count: String(p.state.count) } }));

/** The path replayed on the toy's real side (with `bug`); the first finding and the step it came at. */
async function replayPath(path: LockPath, opts: { bug?: LockBug; reach: 'inject' | 'replay'; judge: TourReplayJudgement }): Promise<{ at: number; finding: ReplayFinding } | null> {
  const sys = toySystem({ reach: opts.reach, ...(opts.bug ? { bug: opts.bug } : {}) });
  const session = tourPathSession({
    system: sys,
    attemptOf: (step, _i, prev) => lockModel.attempts(prev).find((a) => lockModel.attemptLabel(a) === step.action)!,
    toItf: (s) => ({ holder: s.holder ?? 'none', count: String(s.count) }),
    judge: opts.judge,
    where: 'in memory',
    close: async () => {},
  });
  const steps = asSteps(path);
  try {
    for (const [i, step] of steps.entries()) {
      if (i > 0) await session.step(i, step, steps[i - 1]!);
      await session.observe();
      const f = session.takeFindings?.()[0];
      if (f) return { at: i, finding: f };
    }
    return null;
  } finally {
    await session.close();
    expect(sys.server.live(), 'every instance disposed').toBe(0);
  }
}

const CASES: readonly { bug: LockBug; check: string; reach: 'inject' | 'replay' }[] = [
  { bug: 'release-any-holder', check: 'Conformance', reach: 'inject' },
  { bug: 'release-any-holder', check: 'Conformance', reach: 'replay' },
  { bug: 'bump-by-two', check: 'Conformance', reach: 'inject' },
  { bug: 'silent-audit', check: 'Audit', reach: 'inject' },
  { bug: 'silent-audit', check: 'Audit', reach: 'replay' },
  { bug: 'peek-lies', check: 'Peek', reach: 'inject' },
  { bug: 'peek-lies', check: 'Peek', reach: 'replay' },
];

describe('a tour path replayed with the tour judgement', () => {
  for (const c of CASES)
    it(`${c.bug} (${c.reach}): the tour's ${c.check} finding again, at the same step`, async () => {
      const tour = await runTour(toySystem({ bug: c.bug, reach: c.reach }), { checks: { kind: 'conformance' } });
      expect(tour.failure?.check).toBe(c.check);
      const path = tour.failure!.path;
      const again = await replayPath(path, { bug: c.bug, reach: c.reach, judge: 'tour' });
      expect(again?.finding.check).toBe(c.check);
      expect(again?.at).toBe(path.length - 1);
      // The same path on the unbuggy lock: nothing to find.
      expect(await replayPath(path, { reach: c.reach, judge: 'tour' })).toBeNull();
      // Judged by the invariants alone, the finding is lost (what `trace replay` did before).
      expect(await replayPath(path, { bug: c.bug, reach: c.reach, judge: 'invariants' })).toBeNull();
    });

  it('a tour trace whose finding is no invariant is judged by the tour; an invariant counterexample, and any other layer, by the invariants', () => {
    const invariants = ['TypeOK', 'Inv_Bounded'];
    expect(replayJudgement({ source: 'conform', violated: 'Conformance' }, invariants)).toBe('tour');
    expect(replayJudgement({ source: 'conform', violated: 'ReadSide' }, invariants)).toBe('tour');
    expect(replayJudgement({ source: 'conform', violated: 'Inv_Bounded' }, invariants)).toBe('invariants');
    expect(replayJudgement({ source: 'tlc', violated: 'Inv_Bounded' }, invariants)).toBe('invariants');
    expect(replayJudgement({ source: 'props', violated: 'Conformance' }, invariants)).toBe('invariants');
  });
});
