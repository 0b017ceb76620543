/**
 * Fencing's exploration through the seam (src/seam/explore.ts), in the shape fencing's tests read:
 * the states by canonical key, and the shortest path to a state.
 */
import { exploreSystem, type PathStep, type SystemExploration } from '../../src/seam/explore.js';
import { fencingSystem } from '../../src/systems/fencing/system.js';
import type { FencingBounds, FencingState } from '../../src/systems/fencing/state.js';
import type { FencingEvent, FencingOverrides } from '../../models/fencing/index.js';

export type FencingExploration = SystemExploration<FencingState, FencingEvent> & { readonly states_: ReadonlyMap<string, FencingState> };

export function fencingExplore(
  bounds: FencingBounds,
  opts: { overrides?: FencingOverrides; limit?: number; edges?: boolean } = {},
): SystemExploration<FencingState, FencingEvent> & { byKey: ReadonlyMap<string, FencingState> } {
  const sys = opts.overrides ? fencingSystem(bounds, opts.overrides, 'test') : fencingSystem(bounds);
  const run = exploreSystem(sys, { ...(opts.limit !== undefined && { limit: opts.limit }), ...(opts.edges && { edges: true }) });
  return Object.assign(run, { byKey: new Map(run.keys.map((k, i) => [k, run.states[i]!])) });
}

export function fencingShortestPath(bounds: FencingBounds, overrides: FencingOverrides | undefined, bad: (s: FencingState) => boolean): PathStep<FencingState, FencingEvent>[] | null {
  const sys = overrides ? fencingSystem(bounds, overrides, 'test') : fencingSystem(bounds);
  const x = exploreSystem(sys, { invariants: [], until: bad });
  return x.found < 0 ? null : x.pathTo(x.found);
}
