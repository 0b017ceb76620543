/**
 * Which share of the model's states and labelled transitions a set of runs visited: what the
 * sampled property runs report beside the exhaustive tour (which covers all of them by
 * construction). A visit counts only where it is the model's: a state of its reachable set, an
 * applied step whose (state, action instance) is one of its edges.
 */
import { eventLabel, type FencingEvent } from '../../../../models/fencing/index.js';
import { canonicalKey, type FencingBounds, type FencingState } from '../state.js';
import { modelTour } from './model-graph.js';
import { coveragePercent } from '../../../core/percent.js';

export interface ModelCoverage {
  readonly states: number;
  readonly modelStates: number;
  readonly transitions: number;
  readonly modelTransitions: number;
}

export interface CoverageTracker {
  /** A state the real system was observed in. */
  state(s: FencingState): void;
  /** An applied step from `from` by `ev`. */
  transition(from: FencingState, ev: FencingEvent): void;
  /** Merges another tracker's visits (per-topology figures, then the suite's). */
  merge(other: CoverageTracker): void;
  result(): ModelCoverage;
  /** The visited keys, for merging. */
  readonly visited: { readonly states: ReadonlySet<string>; readonly transitions: ReadonlySet<string> };
}

export function coverageTracker(bounds: FencingBounds): CoverageTracker {
  const model = modelTour(bounds);
  const modelStates = model.stateKeys;
  const states = new Set<string>();
  const transitions = new Set<string>();
  return {
    visited: { states, transitions },
    state(s) {
      const k = canonicalKey(s);
      if (modelStates.has(k)) states.add(k);
    },
    transition(from, ev) {
      const t = `${canonicalKey(from)}|${eventLabel(ev)}`;
      if (model.transitions.has(t)) transitions.add(t);
    },
    merge(other) {
      for (const k of other.visited.states) states.add(k);
      for (const t of other.visited.transitions) transitions.add(t);
    },
    result: () => ({ states: states.size, modelStates: modelStates.size, transitions: transitions.size, modelTransitions: model.transitions.size }),
  };
}

const pct = (a: number, b: number) => coveragePercent(a, b).toFixed(1);

/** `412/4117 states (10.0 %), 980/15636 transitions (6.3 %)` */
export function formatCoverage(c: ModelCoverage): string {
  return `${c.states}/${c.modelStates} states (${pct(c.states, c.modelStates)} %), ${c.transitions}/${c.modelTransitions} transitions (${pct(c.transitions, c.modelTransitions)} %)`;
}
