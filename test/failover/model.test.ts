import { describe, expect, it } from 'vitest';
import { FAILOVER_MUTATION_POINTS, type FailoverModelEvent, type FailoverOverrides } from '../../models/fencing/failover/index.js';
import { loadManifest, mutantsFor } from '../../src/core/manifest.js';
import { importModelPatch, mutatedSystem } from '../../src/seam/model-patch.js';
import { initialFailoverState, FAILOVER_BASE_BOUNDS, failoverKey, type FailoverModelState } from '../../src/systems/fencing/failover/model-state.js';
import { failoverSystem, type FailoverSystem } from '../../src/systems/fencing/failover/system.js';
import { readSystemEvidence } from '../../src/seam/evidence.js';
import { exploreSystem } from '../../src/seam/explore.js';

const sys = failoverSystem();
// R1 is the manifest's (mutants/manifest.json); its model patch is mutants/fencing/model/R1.ts.
const R1 = mutantsFor(loadManifest(), 'model', 'failover').find((m) => m.id === 'R1')!;
const init = initialFailoverState(FAILOVER_BASE_BOUNDS);
const after = (s: FailoverModelState, label: string, system: FailoverSystem = sys): FailoverModelState[] =>
  system
    .successors(s)
    .filter((x) => system.label(x.event) === label)
    .map((x) => x.state);
const one = (s: FailoverModelState, label: string, system: FailoverSystem = sys): FailoverModelState => {
  const next = after(s, label, system);
  if (next.length === 0) throw new Error(`${label} is not enabled in ${failoverKey(s)}`);
  return next[0]!;
};
const walk = (labels: readonly string[], system: FailoverSystem = sys, from = init): FailoverModelState => labels.reduce((s, l) => one(s, l, system), from);
const P1_WAITS = 'WaitAcked([pod |-> p1, gen |-> 1])';
// p1 acquired generation 1 and was told so after the replica confirmed it.
const P1_HOLDS = ['Acquire(p1)', 'Replicate', P1_WAITS];

describe('the failover twin (models/fencing/failover) at the base bounds', () => {
  it("reaches exactly TLC's 742 distinct states, 2,206 generated, depth 15, and breaks no invariant", () => {
    const x = exploreSystem(sys);
    expect({ distinct: x.distinct, generated: x.generated, depth: x.depth }).toEqual({ distinct: 742, generated: 2206, depth: 15 });
    expect(x.verdicts.filter((v) => !v.holds)).toEqual([]);
    expect(x.verdicts.map((v) => v.name)).toEqual(readSystemEvidence('failover', 'base').evidence!.invariants);
  });

  it('with the remedy an acquire is used only once the replica has it (WAIT 1 answered 1)', () => {
    const a = one(init, 'Acquire(p1)');
    expect(a).toMatchObject({ primary: { lease: { owner: 'p1', gen: 1 }, gen: 1 }, pending: [{ pod: 'p1', gen: 1 }], held: { p1: 0 } });
    expect(after(a, P1_WAITS)).toEqual([]); // the replica is behind
    expect(after(a, 'Acquire(p2)')).toEqual([]); // the lease is taken on the primary
    const h = walk(P1_HOLDS);
    expect(h).toMatchObject({ pending: [], held: { p1: 1, p2: 0, p3: 0 }, lastAcked: 1, monoOk: true });
  });

  it('a timed-out WAIT is "unknown": the generation is never used, the lease stays until it expires', () => {
    const t = walk(['Acquire(p1)', 'WaitTimedOut([pod |-> p1, gen |-> 1])']);
    expect(t).toMatchObject({ pending: [], held: { p1: 0 }, lastAcked: 0, primary: { lease: { owner: 'p1', gen: 1 } } });
    expect(after(one(init, 'Acquire(p1)'), 'Expire(p1)')).toEqual([]); // not while p1 still waits
    expect(one(t, 'Expire(p1)').primary).toEqual({ lease: { owner: null, gen: 0 }, gen: 1 });
  });

  it('a failover promotes the replica as it was, answers every waiting client "unknown", and happens once', () => {
    const f = walk(['Acquire(p1)', 'Failover']);
    expect(f).toMatchObject({ primary: init.replica, pending: [], held: { p1: 0 }, failovers: 1 });
    expect(after(f, 'Failover')).toEqual([]);
    // The shortest mutant path is harmless here: nobody holds generation 1 twice.
    expect(one(f, 'Acquire(p2)')).toMatchObject({ pending: [{ pod: 'p2', gen: 1 }], held: { p1: 0, p2: 0 }, monoOk: true });
  });

  it('Expire has one instance per true disjunct of its guard, all to one state (TLC generates each)', () => {
    const h = walk(P1_HOLDS);
    const expires = after(h, 'Expire(p1)');
    expect(expires).toHaveLength(3); // held[p1], the primary's lease and the replica's lease
    expect(new Set(expires.map(failoverKey)).size).toBe(1);
    expect(expires[0]).toMatchObject({ held: { p1: 0 }, primary: { lease: { owner: null } }, replica: { lease: { owner: null } } });
    expect(after(one(h, 'Release(p1)'), 'Expire(p1)')).toHaveLength(1); // only the replica's copy is left
  });

  it("release is a compare-and-delete: it leaves a lease that is not the caller's (reachable without the remedy)", async () => {
    const m = await mutatedSystem(sys, R1);
    const s = walk(['Acquire(p1)', 'Failover', 'Acquire(p2)'], m);
    const r = one(s, 'Release(p1)', m);
    expect(r).toMatchObject({ held: { p1: 0, p2: 1 }, primary: { lease: { owner: 'p2', gen: 1 } } });
  });

  it('the manifest has one replication mutant, R1, whose patch overrides exactly its mutation point', async () => {
    expect(mutantsFor(loadManifest(), 'model', 'failover').map((m) => [m.id, m.target, m.expectedInvariant])).toEqual([['R1', 'Acquire_WaitReplica', 'Inv_Monotonic']]);
    expect([R1.target]).toEqual([...FAILOVER_MUTATION_POINTS]);
    const o = (await importModelPatch(R1, sys.overridable)) as FailoverOverrides;
    expect(Object.keys(o.guards ?? {})).toEqual([R1.target]);
  });
});

// R1 is checked by TLC twice: R1.cfg (the manifest's, Inv_Monotonic) and R1-Inv_SingleAuthority.cfg,
// extra evidence that T1 breaks too. The twin with R1's one patch must agree with both.
const R1_RUNS = [
  { evidence: 'R1', expected: 'Inv_Monotonic' },
  { evidence: 'R1-Inv_SingleAuthority', expected: 'Inv_SingleAuthority' },
] as const;

describe('R1 on the twin: Acquire_WaitReplica dropped (machine.provide() of one override)', () => {
  for (const m of R1_RUNS) {
    it(`R1 breaks ${m.expected} (evidence/tlc/failover/${m.evidence}.json), shortest counterexample 4 states like TLC's: Acquire(p1), Failover, Acquire(p2)`, async () => {
      const ms = await mutatedSystem(sys, R1);
      expect(ms.name).toBe('failover/R1');
      const typeOk = ms.invariants.TypeOK!;
      const expected = ms.invariants[m.expected]!;
      // As the mutant's config: TypeOK and the expected invariant, the first broken state breadth-first.
      const x = exploreSystem(ms, { invariants: [], until: (s) => !typeOk(s) || !expected(s) });
      expect(x.found).toBeGreaterThanOrEqual(0);
      const path = x.pathTo(x.found);
      const last = path[path.length - 1]!.state;
      expect(typeOk(last)).toBe(true);
      expect(expected(last)).toBe(false);
      expect(path.map((p) => (p.event ? ms.label(p.event) : 'Init'))).toEqual(['Init', 'Acquire(p1)', 'Failover', 'Acquire(p2)']);
      expect(last).toMatchObject({ held: { p1: 1, p2: 1, p3: 0 }, lastAcked: 1, monoOk: false });
      const ev = readSystemEvidence('failover', m.evidence);
      expect(ev.freshness).toEqual({ fresh: true });
      expect({ violated: ev.evidence!.violated, length: ev.evidence!.traceLength }).toEqual({ violated: m.expected, length: path.length });
      // The path is the mutated machine's: each step one of its own successors.
      for (let i = 1; i < path.length; i++) {
        const step = path[i]!;
        expect(ms.successors(path[i - 1]!.state).some((n) => ms.label(n.event) === ms.label(step.event as FailoverModelEvent) && ms.key(n.state) === ms.key(step.state))).toBe(true);
      }
    });
  }
});
