/**
 * The gate's rules on the fleet it reads itself: for each fail-closed case, an observation the whole
 * gate refuses by exactly that rule, and the gate that trusts the missing or stale fact (the rule
 * dropped) allows it — so each case's check is shown able to fail.
 */
import { describe, expect, it } from 'vitest';
import { createGate } from '../../../src/systems/fencing/gate/gate.js';
import type { GateObservations } from '../../../src/systems/fencing/gate/observations.js';
import { FLEET_RULE_NAMES, type FleetRuleName } from '../../../src/systems/fencing/gate/fleet-rules.js';
import { parseReplicaSets, type FleetObservation, type ReplicaSet } from '../../../src/systems/fencing/gate/fleet.js';
import { SourceMalformedError } from '../../../src/fleet/sources.js';
import type { Phase } from '../../../src/systems/fencing/state.js';

const RS: ReplicaSet[] = [
  { name: 'relay-o', revision: 1, desired: 0, replicas: 0 },
  { name: 'relay-a', revision: 2, desired: 2, replicas: 2 },
];

/** Two pods of relay-a, both at A, heard from and fresh: AdvanceTarget from A is allowed. */
function fleet(change: Partial<FleetObservation> = {}): GateObservations {
  const f: FleetObservation = { replicaSets: RS, pods: { 'relay-a-x1': ['A'], 'relay-a-x2': ['A'] }, silent: [], down: [], stale: [], maxAgeMs: 30_000, source: 'metrics', ...change };
  const podPhases = Object.fromEntries(Object.entries(f.pods).flatMap(([p, ps]) => (ps.length === 1 ? [[p, ps[0] as Phase]] : [])));
  return { podPhases, target: 'A', mode: 'disabled', backfilled: false, oldLeaseCensus: 0, newLeaseCensus: 0, counters: [], keyslot: null, fleet: f };
}

const WITNESS: Record<FleetRuleName, GateObservations> = {
  // A scraped target answered without the gauge (its pod counted by no ReplicaSet yet), and one went down.
  Fleet_EveryPodReports: fleet({ silent: ['127.0.0.1:9100'], down: ['relay-a-x3'] }),
  Fleet_FreshSamples: fleet({ stale: [{ who: 'relay-a-x2', ageMs: 95_000 }] }),
  // relay-a-x2 reports A and B: counted once by its ReplicaSet, its phases not trusted.
  Fleet_OnePhasePerPod: fleet({ pods: { 'relay-a-x1': ['A'], 'relay-a-x2': ['A', 'B'] } }),
  // The ReplicaSet has 3 pods, only 2 report: the third may run anything.
  Fleet_ReplicaSetsMatchPods: fleet({ replicaSets: [RS[0]!, { ...RS[1]!, replicas: 3, desired: 3 }] }),
  // The old ReplicaSet still runs a pod (O) that the gauge did not show.
  ImageChange_OlderReplicaSetsAtZero: fleet({ replicaSets: [{ ...RS[0]!, replicas: 0, desired: 1 }, RS[1]!] }),
};

describe('the gate on a fleet it read itself', () => {
  it('allows the step on a whole, fresh, single-phase fleet whose older ReplicaSets are at zero', () => {
    const d = createGate().decide('AdvanceTarget', fleet());
    expect(d.allowed, JSON.stringify(d.refusedBy)).toBe(true);
    expect(d.checked).toEqual(expect.arrayContaining([...FLEET_RULE_NAMES]));
  });

  it.each(FLEET_RULE_NAMES.map((n) => [n]))('%s: refuses its witness, and the gate that trusts the fact allows it', (rule) => {
    const obs = WITNESS[rule];
    const full = createGate().decide('AdvanceTarget', obs);
    expect(full.refusedBy.map((r) => r.rule)).toEqual([rule]);
    expect(createGate({ drop: [rule] }).decide('AdvanceTarget', obs).allowed).toBe(true);
  });

  it('a pod reporting two phases is never read as either', () => {
    const d = createGate().decide('AdvanceTarget', WITNESS.Fleet_OnePhasePerPod);
    expect(d.refusedBy[0]!.reason).toMatch(/relay-a-x2=A\+B/);
  });

  it('the fleet rules hold when the phases were given (--pods): the model-parity decisions are unchanged', () => {
    const { fleet: _f, ...given } = WITNESS.Fleet_ReplicaSetsMatchPods;
    expect(createGate().decide('AdvanceTarget', given).allowed).toBe(true);
  });

  it('a rollback is an image change too: refused while an older ReplicaSet runs', () => {
    const obs = { ...WITNESS.ImageChange_OlderReplicaSetsAtZero, target: 'A' as const };
    expect(
      createGate()
        .decide('RollbackPhase', obs)
        .refusedBy.map((r) => r.rule),
    ).toContain('ImageChange_OlderReplicaSetsAtZero');
  });
});

describe('ReplicaSets in kubectl get rs -o json shape', () => {
  const item = (name: string, rev: string, spec: unknown, status: unknown) => ({
    kind: 'ReplicaSet',
    metadata: { name, annotations: { 'deployment.kubernetes.io/revision': rev } },
    spec: { replicas: spec },
    status: { replicas: status },
  });
  it('reads them oldest revision first', () => {
    const rs = parseReplicaSets('rs.json', { kind: 'List', items: [item('relay-b', '10', 3, 3), item('relay-a', '9', 0, 0)] });
    expect(rs.map((r) => r.name)).toEqual(['relay-a', 'relay-b']);
  });
  it.each([
    ['not a list', { kind: 'ReplicaSet' }, /no 'items' array/],
    ['a Pod list', { kind: 'PodList', items: [] }, /kind is "PodList"/],
    ['no revision', { kind: 'List', items: [{ ...item('r', '1', 1, 1), metadata: { name: 'r' } }] }, /revision' annotation/],
    ['a missing status count', { kind: 'List', items: [item('r', '1', 1, undefined)] }, /status.replicas is not a count/],
    ['no ReplicaSet', { kind: 'ReplicaSetList', items: [] }, /no ReplicaSet listed/],
    ['one revision twice', { kind: 'List', items: [item('r', '1', 1, 1), item('s', '1', 0, 0)] }, /same revision/],
  ])('refuses %s, naming the source', (_w, json, why) => {
    expect(() => parseReplicaSets('rs.json', json)).toThrow(SourceMalformedError);
    expect(() => parseReplicaSets('rs.json', json)).toThrow(why);
  });
});
