import { describe, expect, it } from 'vitest';
import { PAUSE_MUTATION_POINTS, pauseAnswer, pauseMachineFor, type PauseModelEvent, type PauseOverrides } from '../../models/pause/index.js';
import { loadManifest, mutantsFor } from '../../src/core/manifest.js';
import { importModelPatch, mutatedSystem } from '../../src/seam/model-patch.js';
import { initialPauseState, PAUSE_BASE_BOUNDS, pauseKey, type PauseModelState } from '../../src/systems/pause/model-state.js';
import { pauseSystem } from '../../src/systems/pause/system.js';
import { readSystemEvidence } from '../../src/seam/evidence.js';
import { exploreSystem } from '../../src/seam/explore.js';

const sys = pauseSystem();
// P1–P6 are the manifest's (mutants/manifest.json); each model patch is mutants/pause/model/<id>.ts.
const PAUSE_MUTANTS = mutantsFor(loadManifest(), 'model', 'pause');
const init = initialPauseState(PAUSE_BASE_BOUNDS);
const after = (s: PauseModelState, label: string, system = sys): PauseModelState[] =>
  system
    .successors(s)
    .filter((x) => system.label(x.event) === label)
    .map((x) => x.state);
const one = (s: PauseModelState, label: string, system = sys): PauseModelState => {
  const next = after(s, label, system);
  if (next.length === 0) throw new Error(`${label} is not enabled in ${pauseKey(s)}`);
  return next[0]!;
};
const walk = (labels: readonly string[], system = sys): PauseModelState => labels.reduce((s, l) => one(s, l, system), init);
// r1 subscribed, loaded (version 0) and ready.
const READY_R1 = ['Subscribe(r1)', 'Load(r1)', 'Ready(r1)'];

/** TLC's figures (tla/pause/README.md; evidence/tlc/pause/). */
const TLC_TRACE_LENGTH: Readonly<Record<string, number>> = { P1: 9, P2: 5, P3: 9, P4: 5, P5: 2, P6: 9, P13: 6, P14: 6 };

describe('the pause twin (models/pause) at the base bounds', () => {
  it("reaches exactly TLC's 15,268 distinct states, 108,901 generated, depth 17, and breaks no invariant", () => {
    const x = exploreSystem(sys);
    expect({ distinct: x.distinct, generated: x.generated, depth: x.depth }).toEqual({ distinct: 15268, generated: 108901, depth: 17 });
    expect(x.verdicts.filter((v) => !v.holds)).toEqual([]);
    expect(x.verdicts.map((v) => v.name)).toEqual(readSystemEvidence('pause', 'base').evidence!.invariants);
  });

  it('merges identical concurrent calls into one pending record (pending is a set)', () => {
    const s = walk([...READY_R1, 'BeginSetPaused(r1, TRUE)', 'BeginSetPaused(r1, TRUE)']);
    expect(s.calls).toBe(2);
    expect(s.pending).toEqual([{ by: 'r1', paused: true, version: 0 }]);
    expect(after(s, 'BeginSetPaused(r1, FALSE)')).toEqual([]); // MaxCalls reached
  });

  it('publishes after the write only, to subscribed replicas, and updates the caller', () => {
    const begun = walk([...READY_R1, 'Subscribe(r2)', 'BeginSetPaused(r1, TRUE)']);
    expect(begun.chan).toEqual({ r1: [], r2: [] });
    const c = one(begun, 'CommitSetPaused([by |-> r1, paused |-> TRUE, version |-> 0])');
    expect(c.history).toEqual([true]);
    expect(c.chan).toEqual({ r1: [{ paused: true, version: 1 }], r2: [{ paused: true, version: 1 }] });
    expect(c.snap.r1).toEqual({ paused: true, version: 1 });
    const f = one(begun, 'FailSetPaused([by |-> r1, paused |-> TRUE, version |-> 0])');
    expect(f).toMatchObject({ history: [], pending: [], chan: { r1: [], r2: [] } });
  });

  it('does not apply (or record as dropped) an event before the initial load', () => {
    const s = walk([...READY_R1, 'Subscribe(r2)', 'BeginSetPaused(r1, TRUE)', 'CommitSetPaused([by |-> r1, paused |-> TRUE, version |-> 0])']);
    const delivered = one(s, 'Deliver(r2, [paused |-> TRUE, version |-> 1])');
    expect(delivered.snap.r2).toBeNull();
    expect(delivered.chan.r2).toEqual([]);
    expect(one(s, 'Drop(r2, [paused |-> TRUE, version |-> 1])').dropped.r2).toEqual([]);
  });

  it('keeps in dropped only versions newer than the snapshot (pruned by Hold)', () => {
    const s: PauseModelState = {
      ...walk(READY_R1),
      history: [true, false],
      chan: { r1: [{ paused: true, version: 1 }], r2: [] },
      dropped: { r1: [1, 2], r2: [] },
    };
    expect(one(s, 'Deliver(r1, [paused |-> TRUE, version |-> 1])').dropped.r1).toEqual([2]);
    expect(one(s, 'Reconcile(r1)')).toMatchObject({ snap: { r1: { paused: false, version: 2 } }, dropped: { r1: [] }, synced: { r1: 2 }, age: { r1: 0 } });
  });

  it('ages only loaded snapshots within the bound; Tick has one instance per witness (TLC generates each)', () => {
    const s = walk(['Subscribe(r1)', 'Load(r1)']);
    expect(after(s, 'Tick')).toHaveLength(1);
    const t = one(s, 'Tick');
    expect(t.age).toEqual({ r1: 1, r2: 0 });
    expect(after(t, 'Tick')).toEqual([]);
    const both = walk(['Subscribe(r1)', 'Load(r1)', 'Subscribe(r2)', 'Load(r2)']);
    const ticks = after(both, 'Tick');
    expect(ticks).toHaveLength(2);
    expect(pauseKey(ticks[0]!)).toBe(pauseKey(ticks[1]!));
  });

  it('answers the hot read through the machine: unavailable past the age bound, served by the P4 machine', async () => {
    const stale = one(walk(READY_R1), 'Tick');
    expect(pauseAnswer(pauseMachineFor(PAUSE_BASE_BOUNDS), stale, 'r1')).toEqual({ served: false, paused: false });
    const p4 = PAUSE_MUTANTS.find((m) => m.id === 'P4')!;
    expect(pauseAnswer(pauseMachineFor(PAUSE_BASE_BOUNDS, (await importModelPatch(p4, sys.overridable)) as PauseOverrides), stale, 'r1')).toEqual({ served: true, paused: false });
  });

  it('the manifest has P1–P6, P13 and P14, one per mutation point, each patch overriding exactly its own', async () => {
    expect(PAUSE_MUTANTS.map((m) => m.id)).toEqual(['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P13', 'P14']);
    expect(PAUSE_MUTANTS.map((m) => m.target)).toEqual([...PAUSE_MUTATION_POINTS]);
    for (const m of PAUSE_MUTANTS) {
      expect(m.layers.model?.patch).toBe(`mutants/pause/model/${m.id}.ts`);
      const o = (await importModelPatch(m, sys.overridable)) as PauseOverrides;
      expect(Object.keys(o.guards ?? {})).toEqual([m.target]);
    }
  });
});

describe('P1–P6, P13 and P14 on the twin (machine.provide() of one override)', () => {
  for (const m of PAUSE_MUTANTS) {
    it(`${m.id} (${m.target}) is killed by ${m.expectedInvariant}, shortest counterexample ${TLC_TRACE_LENGTH[m.id]} states like TLC's`, async () => {
      const ms = await mutatedSystem(sys, m);
      expect(ms.name).toBe(`pause/${m.id}`);
      const typeOk = ms.invariants.TypeOK!;
      const expected = ms.invariants[m.expectedInvariant]!;
      // As tla/pause/mutants/<id>.cfg: TypeOK and the expected invariant, the first broken state breadth-first.
      const x = exploreSystem(ms, { invariants: [], until: (s) => !typeOk(s) || !expected(s) });
      expect(x.found).toBeGreaterThanOrEqual(0);
      const path = x.pathTo(x.found);
      const last = path[path.length - 1]!.state;
      expect(typeOk(last)).toBe(true);
      expect(expected(last)).toBe(false);
      expect(path.length).toBe(TLC_TRACE_LENGTH[m.id]);
      const ev = readSystemEvidence('pause', m.id);
      if (ev.freshness.fresh) expect({ violated: ev.evidence!.violated, length: ev.evidence!.traceLength }).toEqual({ violated: m.expectedInvariant, length: path.length });
      // The path is the mutated machine's: each step one of its own successors.
      for (let i = 1; i < path.length; i++) {
        const step = path[i]!;
        expect(ms.successors(path[i - 1]!.state).some((n) => ms.label(n.event) === ms.label(step.event as PauseModelEvent) && ms.key(n.state) === ms.key(step.state))).toBe(true);
      }
    });
  }
});
