/**
 * Exhaustive breadth-first exploration of any ModelSystem: one entry per canonical key, counts in
 * TLC's sense (distinct; generated = initial states + one per enabled action instance, self-loops
 * and duplicates included), every invariant checked once per distinct state, and for each broken
 * invariant the first violating state discovered — breadth-first, so a shortest counterexample, as
 * TLC's one-worker BFS reports. A system may offer a packed integer key (`fastKey`), looked up
 * before the canonical key: at Pods=6/MaxGen=6 fencing makes 610k transitions, and building and
 * hashing a 150-character key for each was a third of the walk.
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
  /** Record every transition (`edges`), for parity with TLC's state graph. */
  readonly edges?: boolean;
}

/** One transition: indexes into `keys`, and the event. */
export interface ExploredEdge<E> {
  readonly from: number;
  readonly event: E;
  readonly to: number;
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
  readonly initial: number;
  /** With `edges`: every transition, self-loops and repeats included, in the order taken. */
  readonly edges?: readonly ExploredEdge<E>[];
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
  const pack = sys.fastKey?.();
  const byPack = new Map<number, number>();
  // Adds a state if new; checks invariants once; returns its index.
  // The systems' own form of each state not yet expanded (Successor.resume), released once expanded.
  const resumes: unknown[] = [];
  const intern = (s: S, from: number, e: E | null, resume?: unknown): number => {
    const p = pack?.(s);
    if (p !== undefined) {
      const hit = byPack.get(p);
      if (hit !== undefined) return hit;
    }
    const k = sys.key(s);
    const known = index.get(k);
    if (known !== undefined) {
      if (p !== undefined) byPack.set(p, known);
      return known;
    }
    const i = keys.length;
    index.set(k, i);
    if (p !== undefined) byPack.set(p, i);
    resumes.push(resume);
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
  const edges: ExploredEdge<E>[] | undefined = opts.edges ? [] : undefined;
  const inits = sys.initialStates();
  for (const s of inits) intern(s, -1, null);
  for (let i = 0; i < states.length && found < 0; i++) {
    const resume = resumes[i];
    resumes[i] = undefined;
    for (const { event, state, resume: next } of sys.successors(states[i]!, resume)) {
      if (++transitions > limit) throw new SystemExplorationLimitError(`${sys.name}: exploration exceeded ${limit} transitions`);
      const j = intern(state, i, event, next);
      if (j === i) selfLoops++;
      edges?.push({ from: i, event, to: j });
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
    initial: inits.length,
    ...(edges && { edges }),
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
