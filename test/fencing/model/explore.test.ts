import { describe, expect, it } from 'vitest';
import { getAdjacencyMap } from 'xstate/graph';
import { INVARIANT_NAMES } from '../../../src/systems/fencing/invariants.js';
import { DEFAULT_BOUNDS, canonicalKey, initialState, podsOf } from '../../../src/systems/fencing/state.js';
import { SystemExplorationLimitError as ExplorationLimitError } from '../../../src/seam/explore.js';
import { fencingExplore, fencingShortestPath } from '../../support/fencing-explore.js';
import { allEvents, applyEffect, enabledEvents, eventLabel, machineFor, nextState, snapshotOf } from '../../../models/fencing/index.js';

const b = DEFAULT_BOUNDS;
const base = fencingExplore(b);

describe('exhaustive exploration of the base config', () => {
  it('finds every invariant holding on every reachable state', () => {
    expect(base.verdicts.map((v) => v.name)).toEqual([...INVARIANT_NAMES]);
    for (const v of base.verdicts) expect(v, v.name).toMatchObject({ holds: true, violatingStates: 0 });
    // The counts against TLC's own for the same config (tla/fencing/README.md, evidence/tlc/fencing/base.json), not
    // against each other (explore derives distinct from its state map and generated from its edges).
    expect(base.distinct).toBe(4117);
    expect(base.generated).toBe(15637);
    expect(base.byKey.has(canonicalKey(initialState(b)))).toBe(true);
  });

  it('reaches the end of the migration: every pod on C behind the enabled door', () => {
    const done = [...base.byKey.values()].filter((s) => s.mode === 'enabled');
    expect(done.length).toBeGreaterThan(0);
    for (const s of done) expect(Object.values(s.version)).toEqual(['C', 'C', 'C']);
  });

  it('keeps the regions and the context variables in agreement on every reachable snapshot', () => {
    const machine = machineFor(b);
    const adj = getAdjacencyMap(machine, {
      fromState: snapshotOf(machine, initialState(b)),
      events: allEvents(b),
      filterEvents: (snap, ev) => snap.can(ev),
      serializeState: (snap) => canonicalKey(snap.context),
    });
    const snaps = Object.values(adj).map((a) => a.state);
    expect(snaps).toHaveLength(base.distinct);
    for (const snap of snaps) expect(snap.value).toEqual({ mode: snap.context.mode, target: snap.context.target });
  });

  it('nextState, enabledEvents and applyEffect agree on every reachable state and event', () => {
    let enabledPairs = 0;
    for (const s of base.byKey.values()) {
      const enabled = new Set(enabledEvents(s, b).map(eventLabel));
      for (const ev of allEvents(b)) {
        const next = nextState(s, ev, b);
        expect(next === null, `${eventLabel(ev)} in ${canonicalKey(s)}`).toBe(!enabled.has(eventLabel(ev)));
        if (next === null) continue;
        enabledPairs++;
        expect(canonicalKey(applyEffect(s, ev, b))).toBe(canonicalKey(next));
        expect(base.byKey.has(canonicalKey(next))).toBe(true);
      }
    }
    expect(enabledPairs).toBe(base.transitions);
  });

  it('gives the shortest path to a state (breadth-first), starting at Init', () => {
    const path = fencingShortestPath(b, undefined, (s) => s.mode === 'compatible');
    expect(path).not.toBeNull();
    // O→A, 3 upgrades, A→B, 3 upgrades, Backfill, B→C, 3 upgrades, EnterCompatible
    expect(path!.map((p) => p.event?.type ?? 'Init')).toHaveLength(15);
    expect(path![0]!.event).toBeNull();
    expect(path![0]!.state).toEqual(initialState(b));
    expect(path![path!.length - 1]!.state.mode).toBe('compatible');
    // A path: each state is the one before it with its event applied.
    for (let i = 1; i < path!.length; i++) {
      expect(canonicalKey(nextState(path![i - 1]!.state, path![i]!.event!, b)!), `step ${i}`).toBe(canonicalKey(path![i]!.state));
    }
    // The shortest: an independent breadth-first search finds no compatible state in fewer steps.
    let frontier = [initialState(b)];
    const seen = new Set(frontier.map(canonicalKey));
    let depth = 0;
    while (!frontier.some((s) => s.mode === 'compatible')) {
      const next = [];
      for (const s of frontier)
        for (const ev of enabledEvents(s, b)) {
          const t = nextState(s, ev, b)!;
          if (!seen.has(canonicalKey(t))) {
            seen.add(canonicalKey(t));
            next.push(t);
          }
        }
      expect(next.length, `depth ${depth + 1}`).toBeGreaterThan(0);
      frontier = next;
      depth++;
    }
    expect(depth).toBe(path!.length - 1);
  });

  it('grows with the bounds and stays safe (Pods=2, MaxGen 2 and 3)', () => {
    const small = fencingExplore({ pods: podsOf(2), maxGen: 2 });
    const larger = fencingExplore({ pods: podsOf(2), maxGen: 3 });
    expect(small.distinct).toBeLessThan(larger.distinct);
    // Pods = 2, MaxGen = 3: TLC's figures from the growth table in tla/fencing/README.md.
    expect({ distinct: larger.distinct, generated: larger.generated }).toEqual({ distinct: 994, generated: 3239 });
    expect(small.verdicts).toHaveLength(INVARIANT_NAMES.length);
    for (const v of [...small.verdicts, ...larger.verdicts]) expect(v.holds, v.name).toBe(true);
  });

  it('reports a traversal past its limit as ExplorationLimitError', () => {
    expect(() => fencingExplore(b, { limit: 100 })).toThrow(ExplorationLimitError);
  });
});
