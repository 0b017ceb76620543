/**
 * The generic replay loop (src/trace/replay.ts) names no system: here it replays a pause trace on a
 * session whose "implementation" is a twin of the pause model itself (the shipped guards, or P1's),
 * stepping each recorded action instance and reading the state back as the spec's variables. It must
 * mark the variables that differ, stop where an invariant newly breaks on the replayed side, and say
 * where the trace predicted it.
 */
import { describe, expect, it } from 'vitest';
import type { Trace } from '../../src/core/trace-format.js';
import { loadSystemManifest, type AnySystem } from '../../src/registry/systems.js';
import { shortestSystemCounterexample } from '../../src/seam/explore.js';
import { mutatedSystem } from '../../src/seam/model-patch.js';
import type { ReplaySession } from '../../src/seam/replay.js';
import type { ModelSystem } from '../../src/seam/system.js';
import { eventAction, pathToTrace, stateToItf } from '../../src/seam/trace.js';
import { pauseSystem } from '../../src/systems/pause/system.js';
import { replayTrace } from '../../src/trace/replay.js';
import { formatReplayTable, replayVerdict } from '../../src/trace/replay-table.js';

/** A session that runs each step on `impl`: the successor whose action instance is the step's, else refused. */
function twinSession<S, E>(impl: ModelSystem<S, E>): ReplaySession {
  let s: S = impl.initialStates()[0] as S;
  return {
    where: `on the ${impl.name} twin`,
    step: async (_i, step) => {
      const next = impl.successors(s).find((x) => JSON.stringify(eventAction(impl, x.event)) === JSON.stringify({ action: step.action, params: step.params }));
      if (!next) return { status: 'refused', note: 'not enabled' };
      s = next.state;
      return { status: 'applied', note: 'taken' };
    },
    observe: async () => stateToItf(impl, s),
    takeBreaches: () => [],
    close: async () => {},
  };
}

async function p1(): Promise<{ base: AnySystem; mutant: AnySystem; trace: Trace }> {
  const base = pauseSystem() as unknown as AnySystem;
  const mutant = await mutatedSystem(base, loadSystemManifest().mutants.find((m) => m.id === 'P1')!);
  const trace = pathToTrace(mutant, shortestSystemCounterexample(mutant, 'Inv_NoRevert')!, { mutant: 'P1', violated: 'Inv_NoRevert' });
  return { base, mutant, trace };
}

describe('generic replay (any system)', () => {
  it("stops where the replayed side newly breaks an invariant, at the trace's prediction, with nothing marked", async () => {
    const { base, mutant, trace } = await p1();
    const r = await replayTrace(trace, base, twinSession(mutant));
    const last = trace.steps.length - 1;
    expect(r).toMatchObject({ system: 'pause', mutant: 'P1', stoppedAt: last, predictedAt: last, brokenReal: ['Inv_NoRevert'] });
    expect(r.steps.every((s) => s.status === 'init' || s.status === 'applied')).toBe(true);
    expect(r.steps.every((s) => s.mismatches.length === 0)).toBe(true);
    expect(replayVerdict(r, trace.steps.length, base.variables)).toMatch(
      new RegExp(`^the real system breaks Inv_NoRevert at step ${last} \\(Deliver\\(r\\d, \\[paused \\|-> (TRUE|FALSE), version \\|-> \\d\\]\\)\\); the trace predicted step ${last}\\.`),
    );
  });

  it('on the shipped guards: every invariant holds, the step that differs is marked with the variables it changed', async () => {
    const { base, trace } = await p1();
    const r = await replayTrace(trace, base, twinSession(base));
    const last = trace.steps.length - 1;
    expect(r).toMatchObject({ stoppedAt: null, predictedAt: last, brokenReal: [] });
    expect(r.steps[last]!.mismatches).toEqual(['snap']);
    const table = formatReplayTable(r, base.variables, false);
    expect(table).toMatch(/^\s+real\s.*!\[paused \|-> (TRUE|FALSE), version \|-> \d\]/m);
    expect(replayVerdict(r, trace.steps.length, base.variables)).toMatch(
      new RegExp(
        `every invariant held on the real system for all ${trace.steps.length} of ${trace.steps.length} steps; the trace predicted a violation at step ${last}\\.\\nthe real state differs from the trace's at step\\(s\\) ${last} \\(marked\\)\\.`,
      ),
    );
  });
});
