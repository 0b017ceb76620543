/**
 * The breadth-first walk under `explore` and `shortestPathTo`: every reachable snapshot of the XState
 * machine, successors from the machine's own `machine.transition`, one entry per canonical state.
 * It visits exactly what xstate/graph's `getAdjacencyMap` (with `filterEvents: can`) visits, in the
 * same order, and reaches each state first from the same predecessor and event, so the state set,
 * edges, counts and shortest paths are the ones the xstate/graph traversal gave (test/fencing/model/bfs.test.ts
 * cross-checks it). What it drops is the cost: no queue of every transition's snapshot (xstate/graph
 * queues one per transition and shifts an array), no JSON event keys, `can` answered by a compiled
 * selection (enabled.ts), states looked up by a packed integer before their canonical key
 * (state-index.ts). docs/model.md, "Exploration".
 */
import { initialState, type FencingBounds, type FencingState } from '../state.js';
import { allEvents, eventLabel, inertScope, snapshotOf, type FencingEvent, type FencingMachine, type FencingSnapshot } from '../../../../models/fencing/index.js';
import { enabledPlans } from './enabled.js';
import { StateIndex } from './state-index.js';

/** The traversal ran past its limit (the CLI and the mutant runner report it as a timeout). */
export class ExplorationLimitError extends Error {
  override readonly name = 'ExplorationLimitError';
}

export interface WalkOptions {
  /** Give up once more than this many transitions were taken (ExplorationLimitError). */
  readonly limit: number;
  /** Stop at the first state discovered that satisfies this (breadth-first: a nearest one). */
  readonly until?: (s: FencingState) => boolean;
  /** Called for every transition (self-loops included): canonical keys, the event's index in allEvents(bounds). */
  readonly onEdge?: (from: string, event: number, to: string) => void;
}

export interface Walk {
  /** The alphabet offered in every state (allEvents(bounds)); edge and parent events index it. */
  readonly events: readonly FencingEvent[];
  /** Canonical key of each state, in breadth-first discovery order (index 0: Init). */
  readonly keys: readonly string[];
  readonly contexts: readonly FencingState[];
  readonly transitions: number;
  readonly selfLoops: number;
  /** With `until`: the index of the state found, or -1. */
  readonly found: number;
  /** With `until`: each state's first predecessor (-1 for Init) and the event (index) that reached it. */
  readonly parent: readonly number[];
  readonly via: readonly number[];
}

/** States whose every event is also asked of `snapshot.can` (a cheap runtime check of enabled.ts). */
const CHECKED_WITH_CAN = 256;

export function walk(machine: FencingMachine, bounds: FencingBounds, opts: WalkOptions): Walk {
  const events = allEvents(bounds);
  const planOf = enabledPlans(machine, events);
  const init = snapshotOf(machine, initialState(bounds));
  // Snapshots only for the frontier (released once expanded): the walk keeps contexts and keys.
  const snaps: (FencingSnapshot | undefined)[] = [init];
  const contexts: FencingState[] = [init.context];
  const index = new StateIndex(bounds);
  index.intern(init.context);
  const keys = index.keys;
  const track = opts.until !== undefined;
  const parent: number[] = track ? [-1] : [];
  const via: number[] = track ? [-1] : [];
  const { limit, until, onEdge } = opts;
  let transitions = 0;
  let selfLoops = 0;
  const result = (found: number): Walk => ({ events, keys, contexts, transitions, selfLoops, found, parent, via });
  if (until?.(init.context)) return result(0);
  for (let i = 0; i < snaps.length; i++) {
    const snap = snaps[i]!;
    snaps[i] = undefined;
    const plan = planOf(snap);
    if (i < CHECKED_WITH_CAN) crossCheck(snap, events, plan.filter((e) => e.enabled(snap)).map((e) => e.index));
    for (const { index: e, event, enabled } of plan) {
      if (!enabled(snap)) continue;
      if (++transitions > limit) throw new ExplorationLimitError(`exploration exceeded ${limit} transitions`);
      const next = machine.transition(snap, event, inertScope);
      // xstate returns the very snapshot when it selects no transition: the selection disagreed.
      if (next === snap) throw new Error(`enabled.ts admits ${eventLabel(event)} where the machine refuses it (${keys[i]})`);
      const j = index.intern(next.context);
      if (index.added) {
        snaps.push(next);
        contexts.push(next.context);
        if (track) {
          parent.push(i);
          via.push(e);
          if (until!(next.context)) return result(j);
        }
      } else if (j === i) selfLoops++;
      onEdge?.(keys[i]!, e, keys[j]!);
    }
  }
  return result(-1);
}

function crossCheck(snap: FencingSnapshot, events: readonly FencingEvent[], admitted: readonly number[]): void {
  const expected = events.flatMap((ev, i) => (snap.can(ev) ? [i] : []));
  if (expected.length !== admitted.length || expected.some((x, k) => admitted[k] !== x)) {
    throw new Error(`enabled.ts disagrees with snapshot.can: [${admitted.map((i) => eventLabel(events[i]!))}] vs [${expected.map((i) => eventLabel(events[i]!))}]`);
  }
}
