/**
 * Exhaustive breadth-first exploration of any ModelSystem: one entry per canonical key, counts in
 * TLC's sense (distinct; generated = initial states + one per enabled action instance, self-loops
 * and duplicates included), every invariant checked once per distinct state, and for each broken
 * invariant the first violating state discovered — breadth-first, so a shortest counterexample, as
 * TLC's one-worker BFS reports. The fencing exploration (src/systems/fencing/model/) is kept as is: it compiles
 * XState's `can` for speed; this one asks the system.
 */
import type { ModelSystem } from './system.js';

export class SystemExplorationLimitError extends Error {
  override readonly name = 'SystemExplorationLimitError';
}

export interface SystemExploreOptions<S> {
  /** Invariants to check (default: all of the system's). */
  readonly invariants?: readonly string[];
  /** Give up after this many transitions. */
  readonly limit?: number;
  /** Stop at the first state discovered that satisfies this (a shortest path to it). */
  readonly until?: (s: S) => boolean;
}

export interface SystemVerdict {
  readonly name: string;
  readonly holds: boolean;
  readonly violatingStates: number;
  /** States of the shortest counterexample (Init included), when broken. */
  readonly counterexampleLength?: number;
}

export interface PathStep<S, E> {
  /** null for the initial state. */
  readonly event: E | null;
  readonly state: S;
}

export interface SystemExploration<S, E> {
  readonly system: string;
  readonly distinct: number;
  readonly transitions: number;
  readonly generated: number;
  readonly selfLoops: number;
  /** Longest shortest path, in states (TLC: "depth of the complete state graph search"). */
  readonly depth: number;
  /** Canonical keys in discovery order. */
  readonly keys: readonly string[];
  readonly states: readonly S[];
  readonly verdicts: readonly SystemVerdict[];
  /** With `until`: the index of the state found, or -1. */
  readonly found: number;
  /** The path from an initial state to the state at `index`. */
  pathTo(index: number): PathStep<S, E>[];
  /** Shortest counterexample to a broken invariant, or null when it holds. */
  counterexample(invariant: string): PathStep<S, E>[] | null;
  readonly durationMs: number;
}

export const SYSTEM_DEFAULT_LIMIT = 20_000_000;

export function exploreSystem<S, E>(sys: ModelSystem<S, E>, opts: SystemExploreOptions<S> = {}): SystemExploration<S, E> {
  const started = performance.now();
  const names = opts.invariants ?? Object.keys(sys.invariants);
  const checks = names.map((n) => {
    const inv = sys.invariants[n];
    if (!inv) throw new RangeError(`${sys.name} has no invariant ${n}`);
    return inv;
  });
  const limit = opts.limit ?? SYSTEM_DEFAULT_LIMIT;
  const index = new Map<string, number>();
  const keys: string[] = [];
  const states: S[] = [];
  const parent: number[] = [];
  const via: (E | null)[] = [];
  const level: number[] = [];
  const violating = names.map(() => 0);
  const first = names.map(() => -1);
  let transitions = 0;
  let selfLoops = 0;
  let found = -1;
  // Adds a state if new; checks invariants once; returns its index.
  const intern = (s: S, from: number, e: E | null): number => {
    const k = sys.key(s);
    const known = index.get(k);
    if (known !== undefined) return known;
    const i = keys.length;
    index.set(k, i);
    keys.push(k);
    states.push(s);
    parent.push(from);
    via.push(e);
    level.push(from < 0 ? 1 : level[from]! + 1);
    for (let c = 0; c < checks.length; c++) {
      if (!checks[c]!(s)) {
        violating[c]!++;
        if (first[c] === -1) first[c] = i;
      }
    }
    if (found < 0 && opts.until?.(s)) found = i;
    return i;
  };
  const inits = sys.initialStates();
  for (const s of inits) intern(s, -1, null);
  for (let i = 0; i < states.length && found < 0; i++) {
    for (const { event, state } of sys.successors(states[i]!)) {
      if (++transitions > limit) throw new SystemExplorationLimitError(`${sys.name}: exploration exceeded ${limit} transitions`);
      const j = intern(state, i, event);
      if (j === i) selfLoops++;
      if (found >= 0) break;
    }
  }
  const pathTo = (at: number): PathStep<S, E>[] => {
    const path: PathStep<S, E>[] = [];
    for (let i = at; i >= 0; i = parent[i]!) path.push({ event: via[i]!, state: states[i]! });
    return path.reverse();
  };
  return {
    system: sys.name,
    distinct: keys.length,
    transitions,
    generated: inits.length + transitions,
    selfLoops,
    depth: level.reduce((m, x) => Math.max(m, x), 0),
    keys,
    states,
    verdicts: names.map((name, c) => ({
      name,
      holds: violating[c] === 0,
      violatingStates: violating[c]!,
      ...(first[c]! >= 0 && { counterexampleLength: level[first[c]!]! }),
    })),
    found,
    pathTo,
    counterexample: (inv) => {
      const c = names.indexOf(inv);
      if (c < 0) throw new RangeError(`invariant ${inv} was not checked`);
      return first[c]! < 0 ? null : pathTo(first[c]!);
    },
    durationMs: performance.now() - started,
  };
}

/** The shortest path to a state breaking `invariant`, the walk stopping there (null when none is reachable). */
export function shortestSystemCounterexample<S, E>(sys: ModelSystem<S, E>, invariant: string, limit?: number): PathStep<S, E>[] | null {
  const inv = sys.invariants[invariant];
  if (!inv) throw new RangeError(`${sys.name} has no invariant ${invariant}`);
  const x = exploreSystem(sys, { invariants: [], until: (s) => !inv(s), ...(limit !== undefined && { limit }) });
  return x.found < 0 ? null : x.pathTo(x.found);
}
