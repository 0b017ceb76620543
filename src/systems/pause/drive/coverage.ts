/**
 * What share of the twin a sample of walks covered: distinct states (by pauseSystem().key) and
 * distinct labelled transitions (state key + TLA+ action instance; Tick's witnesses are one
 * transition, as they lead to one state). The totals come from one exhaustive exploration of the
 * twin (about a second), done once per process.
 */
import type { PauseModelEvent } from '../../../../models/pause/index.js';
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

let cached: TwinTotals | null = null;

export function twinTotals(twin: ModelSystem<PauseModelState, PauseModelEvent>): TwinTotals {
  if (cached) return cached;
  const seen = new Set<string>();
  const edges = new Set<string>();
  const queue = [...twin.initialStates()];
  for (const s of queue) seen.add(twin.key(s));
  for (let i = 0; i < queue.length; i++) {
    const s = queue[i]!;
    const k = twin.key(s);
    for (const { event, state } of twin.successors(s)) {
      edges.add(`${k}|${twin.label(event)}`);
      const nk = twin.key(state);
      if (!seen.has(nk)) {
        seen.add(nk);
        queue.push(state);
      }
    }
  }
  cached = { states: seen.size, transitions: edges.size };
  return cached;
}

const pct = (n: number, d: number): number => (d === 0 ? 0 : Math.round((10_000 * n) / d) / 100);

export function coverageOf(walks: readonly { states: readonly string[]; edges: readonly string[] }[], totals: TwinTotals): Coverage {
  const states = new Set(walks.flatMap((w) => w.states)).size;
  const transitions = new Set(walks.flatMap((w) => w.edges)).size;
  return { states, transitions, totalStates: totals.states, totalTransitions: totals.transitions, statesPct: pct(states, totals.states), transitionsPct: pct(transitions, totals.transitions) };
}
