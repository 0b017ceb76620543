/**
 * Exhaustive exploration of the XState twin: a breadth-first walk over the machine's own transition
 * function (bfs.ts), keyed by the canonical form of the spec variables (so two snapshots are one state
 * exactly when TLC would count them as one), every chosen invariant checked once per distinct state,
 * and the shortest path to a violating state from the same walk. It replaced xstate/graph's
 * `getAdjacencyMap` / `getShortestPaths` (same states, edges and paths; test/fencing/model/bfs.test.ts checks
 * them against xstate/graph): docs/model.md ("Exploration").
 */
import { INVARIANTS, INVARIANT_NAMES, type InvariantName } from '../invariants.js';
import type { FencingBounds, FencingState } from '../state.js';
import { edgeLine } from '../tlc/edges.js';
import { allEvents, eventLabel, machineFor, type FencingEvent, type FencingOverrides } from '../../../../models/fencing/index.js';
import { walk } from './bfs.js';

export { ExplorationLimitError } from './bfs.js';

export interface ExploreOptions {
  readonly bounds: FencingBounds;
  /** A mutant's guard/effect overrides (applied with machine.provide()). */
  readonly overrides?: FencingOverrides;
  /** Invariants to check (default: every one in INVARIANT_NAMES). */
  readonly invariants?: readonly InvariantName[];
  /** Give up after this many transitions (ExplorationLimitError). */
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
   * (src/systems/fencing/tlc/edges.ts edgeLine), sorted; one per (state, enabled event), self-loops included.
   */
  readonly edges?: readonly string[];
  readonly durationMs: number;
  /** Canonical key → state, in breadth-first discovery order. */
  readonly states: ReadonlyMap<string, FencingState>;
  readonly verdicts: readonly InvariantVerdict[];
}

export const DEFAULT_LIMIT = 20_000_000;

/** Every reachable state of the (possibly mutated) machine, with every chosen invariant checked on each. */
export function explore(opts: ExploreOptions): Exploration {
  const names = opts.invariants ?? INVARIANT_NAMES;
  const started = performance.now();
  const machine = machineFor(opts.bounds, opts.overrides);
  const edges: string[] | undefined = opts.edges ? [] : undefined;
  // Edge lines are built only when asked (the walk hands over canonical keys, events by index).
  const labels = edges ? allEvents(opts.bounds).map(eventLabel) : [];
  const w = walk(machine, opts.bounds, {
    limit: opts.limit ?? DEFAULT_LIMIT,
    ...(edges && { onEdge: (from: string, e: number, to: string) => edges.push(edgeLine(from, labels[e]!, to)) }),
  });
  const states = new Map<string, FencingState>();
  const violating = names.map(() => 0);
  for (let i = 0; i < w.keys.length; i++) {
    const s = w.contexts[i]!;
    states.set(w.keys[i]!, s);
    for (let k = 0; k < names.length; k++) if (!INVARIANTS[names[k]!](s, opts.bounds)) violating[k]!++;
  }
  return {
    bounds: opts.bounds,
    distinct: states.size,
    transitions: w.transitions,
    generated: w.transitions + 1,
    selfLoops: w.selfLoops,
    ...(edges && { edges: edges.sort() }),
    durationMs: performance.now() - started,
    states,
    verdicts: names.map((name, k) => ({ name, holds: violating[k] === 0, violatingStates: violating[k]! })),
  };
}

/** One step of a path: the event taken (null for Init) and the state after it. */
export interface PathStep {
  readonly event: FencingEvent | null;
  readonly state: FencingState;
}

/**
 * The shortest path from Init to a state satisfying `bad` (breadth-first; ties: the first such state
 * discovered, each state reached from its first-discovered predecessor by that predecessor's first
 * event to it — the path xstate/graph's getShortestPaths gave), or null. Stops at the state found.
 */
export function shortestPathTo(
  bounds: FencingBounds,
  overrides: FencingOverrides | undefined,
  bad: (s: FencingState) => boolean,
  limit = DEFAULT_LIMIT,
): PathStep[] | null {
  const w = walk(machineFor(bounds, overrides), bounds, { limit, until: bad });
  if (w.found < 0) return null;
  const path: PathStep[] = [];
  for (let i = w.found; i >= 0; i = w.parent[i]!) path.push({ event: i === 0 ? null : w.events[w.via[i]!]!, state: w.contexts[i]! });
  return path.reverse();
}

/** The shortest counterexample to one invariant. */
export function shortestCounterexample(bounds: FencingBounds, overrides: FencingOverrides | undefined, invariant: InvariantName, limit?: number): PathStep[] | null {
  return shortestPathTo(bounds, overrides, (s) => !INVARIANTS[invariant](s, bounds), limit);
}
