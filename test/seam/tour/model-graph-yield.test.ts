/**
 * The model's graph is built in slices with turns of the event loop between them (modelGraphYielding):
 * once a command's end handlers are installed, a signal is handled only when the loop is free, and
 * a graph built in one synchronous piece held a signal 2–20 s under load (the signal census). The
 * check counts the loop's turns during the build, not time.
 */
import { describe, expect, it } from 'vitest';
import { modelGraph, modelGraphYielding } from '../../../src/seam/tour/model-graph.js';
import type { TourModel } from '../../../src/seam/tour/system.js';

/** A chain of `n` states, each with one attempt to the next and a little work per state. */
function chain(n: number): TourModel<number, 'step', 'moved'> {
  return {
    initialStates: () => [0],
    key: (s) => `s${s}`,
    attempts: () => ['step'],
    attemptLabel: () => 'step',
    predict: (s) => {
      let x = 0;
      for (let i = 0; i < 2_000; i++) x += Math.sqrt(i + s);
      return { decision: 'moved', next: x >= 0 ? Math.min(s + 1, n - 1) : s };
    },
    view: () => ({ label: 'transition Step', kind: 'transition', instance: 'Step', row: 'Step' }),
    invariants: {},
  };
}

describe('the model graph built in slices', () => {
  it('lets the event loop turn while it builds, and builds the same graph', async () => {
    let turns = 0;
    let on = true;
    const tick = () => {
      turns += 1;
      if (on) setImmediate(tick);
    };
    setImmediate(tick);
    const model = chain(20_000);
    const g = await modelGraphYielding(model);
    on = false;
    expect(g.states.length).toBe(20_000);
    // The graph costs well over two 25 ms slices on any machine; built in one piece, the loop turns 0 times.
    expect(turns, `${turns} turns of the event loop during ${Math.round(g.durationMs)} ms of graph`).toBeGreaterThanOrEqual(2);
    expect(modelGraph(chain(20_000)).keys).toEqual(g.keys);
  });
});
