/**
 * The rehearsal's E1 check and two broken gates, on hand-made facts (no processes): E1 flags a
 * fleet running two phases that are not adjacent; the image-tags gate believes a ReplicaSet's tag
 * where the real gate reads the pod's gauge; the remembered-backfill gate keeps a backfill a
 * rollback cleared.
 */
import { describe, expect, it } from 'vitest';
import { checkAdjacentPhases, Violations } from '../../../src/systems/fencing/rollout/checks.js';
import { brokenGate } from '../../../src/systems/fencing/rollout/broken-gates.js';
import { createGate } from '../../../src/systems/fencing/gate/gate.js';
import type { GateObservations } from '../../../src/systems/fencing/gate/observations.js';
import type { Phase } from '../../../src/systems/fencing/state.js';

const e1 = (...phases: Phase[]) => {
  const v = new Violations();
  checkAdjacentPhases(
    phases.map((phase, i) => ({ pod: `p${i}`, phase })),
    v,
  );
  return v.list();
};

describe('E1 on the pods running', () => {
  it('holds for one phase or two adjacent ones', () => {
    expect(e1('O', 'O')).toEqual([]);
    expect(e1('O', 'A')).toEqual([]);
    expect(e1('B', 'A', 'B')).toEqual([]);
    expect(e1('C', 'B')).toEqual([]);
  });
  it('names a fleet that spans phases that are not adjacent', () => {
    expect(e1('O', 'A', 'B')).toEqual(['E1_AdjacentPhases: the fleet runs O (p0) and A (p1) and B (p2)']);
    expect(e1('A', 'C')).toEqual(['E1_AdjacentPhases: the fleet runs A (p0) and C (p1)']);
  });
});

/** relay-2 (image phase A) with pod relay-2-x reporting O (a stale image), target A. */
const staleFleet: GateObservations = {
  podPhases: { 'relay-2-x': 'O' },
  target: 'A',
  mode: 'disabled',
  backfilled: false,
  oldLeaseCensus: 0,
  newLeaseCensus: 0,
  counters: [],
  keyslot: null,
  fleet: {
    replicaSets: [{ name: 'relay-2', revision: 2, desired: 1, replicas: 1, image: 'relay:phase-A' }],
    pods: { 'relay-2-x': ['O'] },
    silent: [],
    down: [],
    stale: [],
    maxAgeMs: 1000,
    source: 'test',
  },
};

describe('broken gates', () => {
  it('the image-tags gate allows an advance the gauge refuses', () => {
    expect(
      createGate()
        .decide('AdvanceTarget', staleFleet)
        .refusedBy.map((r) => r.rule),
    ).toEqual(['AdvanceTarget_FleetAtTarget']);
    expect(brokenGate('image-tags')!.make({ ttlMs: 600 }).decide('AdvanceTarget', staleFleet).allowed).toBe(true);
  });
  it('the remembered-backfill gate allows C after a rollback cleared the record', () => {
    const atB: GateObservations = { ...staleFleet, fleet: undefined, podPhases: { p: 'B' }, target: 'B', backfilled: true } as GateObservations;
    const gate = brokenGate('backfill-survives-rollback')!.make({ ttlMs: 600 });
    expect(gate.decide('AdvanceTarget', atB).allowed).toBe(true);
    const afterRollback = { ...atB, backfilled: false };
    expect(createGate().decide('AdvanceTarget', afterRollback).allowed).toBe(false);
    expect(gate.decide('AdvanceTarget', afterRollback).allowed).toBe(true);
  });
});
