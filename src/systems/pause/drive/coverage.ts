/**
 * What share of the twin a sample of walks covered: distinct states (by pauseSystem().key) and
 * distinct labelled transitions (state key + TLA+ action instance; Tick's witnesses are one
 * transition, as they lead to one state). The totals come from one exhaustive exploration of the
 * twin (the seam's breadth-first search, about a second), done once per twin.
 */
import type { PauseModelEvent } from '../../../../models/pause/index.js';
import { exploreSystem } from '../../../seam/explore.js';
import type { ModelSystem } from '../../../seam/system.js';
import type { PauseModelState } from '../model-state.js';

export interface TwinTotals {
  readonly states: number;
  readonly transitions: number;
}

export interface Coverage {
  readonly states: number;
  readonly transitions: number;
  readonly totalStates: number;
  readonly totalTransitions: number;
  readonly statesPct: number;
  readonly transitionsPct: number;
}

// Per twin, not per process: a twin of other bounds or with a patch has other totals.
const cached = new WeakMap<ModelSystem<PauseModelState, PauseModelEvent>, TwinTotals>();

export function twinTotals(twin: ModelSystem<PauseModelState, PauseModelEvent>): TwinTotals {
  const known = cached.get(twin);
  if (known) return known;
  const x = exploreSystem(twin, { invariants: [], edges: true });
  const edges = new Set(x.edges!.map((e) => `${x.keys[e.from]}|${twin.label(e.event)}`));
  const totals = { states: x.distinct, transitions: edges.size };
  cached.set(twin, totals);
  return totals;
}

const pct = (n: number, d: number): number => (d === 0 ? 0 : Math.round((10_000 * n) / d) / 100);

export function coverageOf(walks: readonly { states: readonly string[]; edges: readonly string[] }[], totals: TwinTotals): Coverage {
  const states = new Set(walks.flatMap((w) => w.states)).size;
  const transitions = new Set(walks.flatMap((w) => w.edges)).size;
  return { states, transitions, totalStates: totals.states, totalTransitions: totals.transitions, statesPct: pct(states, totals.states), transitionsPct: pct(transitions, totals.transitions) };
}
