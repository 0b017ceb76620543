/**
 * Exhaustive exploration of the XState twin with XState's own graph utilities (xstate/graph):
 * `getAdjacencyMap` enumerates every reachable snapshot breadth-first, keyed by the canonical form of
 * the spec variables (so two snapshots are one state exactly when TLC would count them as one), and
 * `getShortestPaths` yields the shortest path to a violating state. Why not a hand-written BFS:
 * docs/model.md ("Exploration").
 */
import { getAdjacencyMap, getShortestPaths } from 'xstate/graph';
import { INVARIANTS, INVARIANT_NAMES, type InvariantName } from '../fencing/invariants.js';
import { canonicalKey, initialState, type FencingBounds, type FencingState } from '../fencing/state.js';
import { edgeLine } from '../tlc/edges.js';
import { allEvents, eventLabel, machineFor, snapshotOf, type FencingEvent, type FencingOverrides, type FencingSnapshot } from '../../models/fencing/index.js';

export interface ExploreOptions {
  readonly bounds: FencingBounds;
  /** A mutant's guard/effect overrides (applied with machine.provide()). */
  readonly overrides?: FencingOverrides;
  /** Invariants to check (default: every one in INVARIANT_NAMES). */
  readonly invariants?: readonly InvariantName[];
  /** Give up after this many queued transitions (ExplorationLimitError). */
  readonly limit?: number;
  /** Also return the labelled edge set (`edges`), for parity with TLC's state graph. */
  readonly edges?: boolean;
}

export interface InvariantVerdict {
  readonly name: InvariantName;
  readonly holds: boolean;
  /** How many reachable states break it. */
  readonly violatingStates: number;
}

export interface Exploration {
  readonly bounds: FencingBounds;
  /** Distinct reachable states (TLC: "distinct states found"). */
  readonly distinct: number;
  /** Enabled (state, action instance) pairs, stuttering steps included. */
  readonly transitions: number;
  /** TLC's "states generated": the initial state plus one successor per enabled action instance. */
  readonly generated: number;
  /** Transitions whose successor is the state itself (Backfill once backfilled, ReverseMerge with oldGen >= newGen). */
  readonly selfLoops: number;
  /**
   * With `edges: true`: every transition as `canonicalKey(from)|eventLabel(ev)|canonicalKey(to)`
   * (src/tlc/edges.ts edgeLine), sorted; one per (state, enabled event), self-loops included.
   */
  readonly edges?: readonly string[];
  readonly durationMs: number;
  /** Canonical key → state, in breadth-first discovery order. */
  readonly states: ReadonlyMap<string, FencingState>;
  readonly verdicts: readonly InvariantVerdict[];
}

/** The traversal ran past its limit (the CLI and the mutant runner report it as a timeout). */
export class ExplorationLimitError extends Error {
  override readonly name = 'ExplorationLimitError';
}

export const DEFAULT_LIMIT = 20_000_000;

function traversalOptions(bounds: FencingBounds, overrides: FencingOverrides | undefined, limit: number) {
  const machine = machineFor(bounds, overrides);
  return {
    machine,
    options: {
      fromState: snapshotOf(machine, initialState(bounds)),
      events: allEvents(bounds),
      // Only transitions a guard admits are edges; a refused event is not a self-loop.
      filterEvents: (snap: FencingSnapshot, ev: FencingEvent) => snap.can(ev),
      serializeState: (snap: FencingSnapshot) => canonicalKey(snap.context),
      limit,
    },
  };
}

function traversalLimited<T>(limit: number, f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof Error && err.message === 'Traversal limit exceeded') {
      throw new ExplorationLimitError(`exploration exceeded ${limit} transitions`);
    }
    throw err;
  }
}

/** Every reachable state of the (possibly mutated) machine, with every chosen invariant checked on each. */
export function explore(opts: ExploreOptions): Exploration {
  const names = opts.invariants ?? INVARIANT_NAMES;
  const limit = opts.limit ?? DEFAULT_LIMIT;
  const started = performance.now();
  const { machine, options } = traversalOptions(opts.bounds, opts.overrides, limit);
  const adjacency = traversalLimited(limit, () => getAdjacencyMap(machine, options));
  const states = new Map<string, FencingState>();
  let transitions = 0;
  let selfLoops = 0;
  const edges: string[] | undefined = opts.edges ? [] : undefined;
  const violating = new Map<InvariantName, number>(names.map((n) => [n, 0]));
  for (const [key, { state, transitions: out }] of Object.entries(adjacency)) {
    states.set(key, state.context);
    for (const { event, state: next } of Object.values(out) as { event: FencingEvent; state: FencingSnapshot }[]) {
      transitions++;
      const to = canonicalKey(next.context);
      if (to === key) selfLoops++;
      edges?.push(edgeLine(key, eventLabel(event), to));
    }
    for (const n of names) if (!INVARIANTS[n](state.context, opts.bounds)) violating.set(n, violating.get(n)! + 1);
  }
  return {
    bounds: opts.bounds,
    distinct: states.size,
    transitions,
    generated: transitions + 1,
    selfLoops,
    ...(edges && { edges: edges.sort() }),
    durationMs: performance.now() - started,
    states,
    verdicts: names.map((name) => ({ name, holds: violating.get(name) === 0, violatingStates: violating.get(name)! })),
  };
}

/** One step of a path: the event taken (null for Init) and the state after it. */
export interface PathStep {
  readonly event: FencingEvent | null;
  readonly state: FencingState;
}

/** The shortest path from Init to a state satisfying `bad` (breadth-first; ties: first found), or null. */
export function shortestPathTo(
  bounds: FencingBounds,
  overrides: FencingOverrides | undefined,
  bad: (s: FencingState) => boolean,
  limit = DEFAULT_LIMIT,
): PathStep[] | null {
  const { machine, options } = traversalOptions(bounds, overrides, limit);
  const paths = traversalLimited(limit, () => getShortestPaths(machine, { ...options, toState: (snap: FencingSnapshot) => bad(snap.context) }));
  let best: (typeof paths)[number] | undefined;
  for (const p of paths) if (best === undefined || p.weight < best.weight) best = p;
  if (best === undefined) return null;
  // xstate/graph paths start with the initial snapshot under the pseudo-event xstate.init.
  return best.steps.map((step, i) => ({ event: i === 0 ? null : step.event, state: step.state.context }));
}

/** The shortest counterexample to one invariant. */
export function shortestCounterexample(bounds: FencingBounds, overrides: FencingOverrides | undefined, invariant: InvariantName, limit?: number): PathStep[] | null {
  return shortestPathTo(bounds, overrides, (s) => !INVARIANTS[invariant](s, bounds), limit);
}
