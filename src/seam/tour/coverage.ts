/**
 * Which share of the model's states and labelled transitions a set of sampled runs visited: what
 * property runs report beside the exhaustive tour (which covers all of them by construction). A
 * visit counts only where it is the model's: a state of its reachable set, an applied step whose
 * (state, action instance) is one of its labelled transitions.
 */
import { coveragePercent } from '../../core/percent.js';
import { modelGraph } from './model-graph.js';
import type { TourModel } from './system.js';

export interface ModelCoverage {
  readonly states: number;
  readonly modelStates: number;
  readonly transitions: number;
  readonly modelTransitions: number;
}

export interface CoverageTracker<S> {
  /** A state the real system was observed in. */
  state(s: S): void;
  /** An applied step from `from` by the action instance `instance` (`AcquireB(p1)`). */
  transition(from: S, instance: string): void;
  /** Merges another tracker's visits (per-topology figures, then the suite's). */
  merge(other: Pick<CoverageTracker<unknown>, 'visited'>): void;
  result(): ModelCoverage;
  /** The visited keys, for merging. */
  readonly visited: { readonly states: ReadonlySet<string>; readonly transitions: ReadonlySet<string> };
}

export function coverageTracker<S>(model: TourModel<S, unknown, unknown>): CoverageTracker<S> {
  const g = modelGraph(model);
  const modelTransitions = g.transitions.reduce((n, t) => n + t.size, 0);
  const states = new Set<string>();
  const transitions = new Set<string>();
  return {
    visited: { states, transitions },
    state(s) {
      const k = model.key(s);
      if (g.index.has(k)) states.add(k);
    },
    transition(from, instance) {
      const k = model.key(from);
      const i = g.index.get(k);
      if (i !== undefined && g.transitions[i]!.has(instance)) transitions.add(`${k}|${instance}`);
    },
    merge(other) {
      for (const k of other.visited.states) states.add(k);
      for (const t of other.visited.transitions) transitions.add(t);
    },
    result: () => ({ states: states.size, modelStates: g.states.length, transitions: transitions.size, modelTransitions }),
  };
}

const pct = (a: number, b: number) => coveragePercent(a, b).toFixed(1);

/** `412/4117 states (10.0 %), 980/15636 transitions (6.3 %)` */
export function formatCoverage(c: ModelCoverage): string {
  return `${c.states}/${c.modelStates} states (${pct(c.states, c.modelStates)} %), ${c.transitions}/${c.modelTransitions} transitions (${pct(c.transitions, c.modelTransitions)} %)`;
}
