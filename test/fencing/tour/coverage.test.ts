import { describe, expect, it } from 'vitest';
import { coverageTracker, formatCoverage } from '../../../src/systems/fencing/tour/coverage.js';
import { DEFAULT_BOUNDS, initialState } from '../../../src/systems/fencing/state.js';
import { nextState } from '../../../models/fencing/index.js';

describe('model coverage of sampled runs', () => {
  it('counts only the model’s states and labelled transitions, each once', () => {
    const t = coverageTracker(DEFAULT_BOUNDS);
    const s0 = initialState(DEFAULT_BOUNDS);
    const s1 = nextState(s0, { type: 'AcquireO', p: 'p1' }, DEFAULT_BOUNDS)!;
    t.state(s0);
    t.state(s0);
    t.transition(s0, { type: 'AcquireO', p: 'p1' });
    t.state(s1);
    // Not the model's: a state it never reaches, a step it never takes from s0.
    t.state({ ...s1, oldLease: { owner: 'p2', gen: 1 }, newLease: { owner: 'p3', gen: 1 } });
    t.transition(s0, { type: 'ExpireOld' });
    expect(t.result()).toEqual({ states: 2, modelStates: 4117, transitions: 1, modelTransitions: 15636 });
    const u = coverageTracker(DEFAULT_BOUNDS);
    u.state(s0);
    u.transition(s0, { type: 'AdvanceTarget' });
    u.merge(t);
    expect(u.result().states).toBe(2);
    expect(u.result().transitions).toBe(2);
    expect(formatCoverage(u.result())).toBe('2/4117 states (0.0 %), 2/15636 transitions (0.0 %)');
  });
});
