// Fencing on the layers' seam (issue 11): the generic exploration of fencingSystem() gives exactly the
// figures of fencing's compiled fast path (src/systems/fencing/model/) and of TLC's committed evidence (evidence/tlc/fencing/).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nextState, type FencingEvent } from '../../models/fencing/index.js';
import { readFencingSystemEvidence } from '../../src/systems/fencing/seam-evidence.js';
import { DEFAULT_BOUNDS, canonicalKey, type FencingState } from '../../src/systems/fencing/state.js';
import { fencingSystem } from '../../src/systems/fencing/system.js';
import { explore, shortestCounterexample } from '../../src/systems/fencing/model/explore.js';
import { loadModelPatch, runModelMutant } from '../../src/mutants/layers/model.js';
import { loadManifest, mutantsFor } from '../../src/core/manifest.js';
import { mutatedSystem } from '../../src/seam/model-patch.js';
import { renderTable } from '../../src/core/table.js';
import { exploreSystem, shortestSystemCounterexample } from '../../src/seam/explore.js';
import { compareStateSets, readCanonicalStateList } from '../../src/seam/parity.js';
import { checkSystem } from '../../src/seam/check.js';
import { SYSTEMS } from '../../src/registry/systems.js';
import type { InvariantName } from '../../src/systems/fencing/invariants.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';

const traceDir = ownedTempDir('fencing-seam');
const timings: string[][] = [];
afterAll(() => {
  rmSync(traceDir, { recursive: true, force: true });
  // Measured, never asserted: how much the seam's plain `can` costs against the compiled selection.
  console.log(`fencing, fast path vs seam (Pods=${DEFAULT_BOUNDS.pods.length} MaxGen=${DEFAULT_BOUNDS.maxGen}):\n${renderTable(['run', 'figure', 'fast ms', 'seam ms'], timings, { alignRight: [2, 3] })}`);
});

function timed<T>(f: () => T): { value: T; ms: string } {
  const t0 = performance.now();
  const value = f();
  return { value, ms: (performance.now() - t0).toFixed(0) };
}

const sys = fencingSystem();
const fast = timed(() => explore({ bounds: DEFAULT_BOUNDS }));
const seam = timed(() => exploreSystem(sys));
timings.push(['base exploration', `${seam.value.distinct} states, ${seam.value.generated} generated`, fast.ms, seam.ms]);
const entries = mutantsFor(loadManifest(), 'model', 'fencing');
/**
 * Mutants whose whole graph is also explored both ways: the two smallest (M3 8,237 states, M9 5,029).
 * All nine would take about 40 s (M8's graph has 62,810 states); a counterexample search stops early.
 */
const WHOLE_GRAPH = ['M3', 'M9'];

describe('fencing on the seam', () => {
  it('explores the same states, counts and verdicts as the fast path, in the same breadth-first order', () => {
    const f = fast.value;
    const s = seam.value;
    expect({ distinct: s.distinct, generated: s.generated, transitions: s.transitions, selfLoops: s.selfLoops }).toEqual({
      distinct: f.distinct, generated: f.generated, transitions: f.transitions, selfLoops: f.selfLoops,
    });
    // Same discovery order, so the same first predecessor of every state and the same shortest paths.
    expect(s.keys).toEqual([...f.states.keys()]);
    expect(s.verdicts.map(({ name, holds, violatingStates }) => ({ name, holds, violatingStates }))).toEqual(f.verdicts);
    expect(s.verdicts.every((v) => v.holds)).toBe(true);
  });

  it("reaches exactly TLC's committed states (the seam's parity adapter) with TLC's generated count", () => {
    const ev = readFencingSystemEvidence('base');
    expect(ev.freshness).toEqual({ fresh: true });
    const tlc = ev.evidence!;
    const p = compareStateSets(seam.value.keys, readCanonicalStateList(tlc.states!.file));
    expect(p, JSON.stringify(p)).toMatchObject({ equal: true, modelCount: tlc.distinct, tlcCount: tlc.distinct });
    expect(seam.value.generated).toBe(tlc.generated);
    expect(seam.value.depth).toBe(tlc.depth);
  });

  it('is registered: `fencecheck systems` checks it like any system (invariants, parity, M1–M9 as TLC kills them)', async () => {
    const c = await checkSystem(await SYSTEMS.fencing!());
    expect(c).toMatchObject({ system: 'fencing', status: 'passed', distinct: 4117, generated: 15637 });
    expect(c.rows.filter((r) => r.check.startsWith('mutant'))).toHaveLength(9);
    expect(c.rows.every((r) => r.status === 'passed')).toBe(true);
  });

  it('lists M1–M9 as the manifest’s fencing model patches', () => {
    expect(entries.map((e) => e.id)).toEqual(['M1', 'M2', 'M3', 'M4', 'M5', 'M6', 'M7', 'M8', 'M9']);
  });

  for (const entry of entries) {
    it(`${entry.id}: the seam's shortest counterexample breaks ${entry.expectedInvariant}, as long as the model layer's and TLC's`, async () => {
      const expected = entry.expectedInvariant as InvariantName;
      const mutated = await mutatedSystem(sys, entry);
      const path = timed(() => shortestSystemCounterexample(mutated, expected));
      const steps = path.value;
      expect(steps, `${entry.id} survived on the seam`).not.toBeNull();
      const last = steps![steps!.length - 1]!.state;
      expect(mutated.invariants[expected]!(last)).toBe(false);
      // Every step is the fast path's own machine step under the same patch.
      const overrides = await loadModelPatch(entry);
      for (let i = 1; i < steps!.length; i++) {
        const next = nextState(steps![i - 1]!.state, steps![i]!.event as FencingEvent, DEFAULT_BOUNDS, overrides);
        expect(next && canonicalKey(next), `${entry.id} step ${i}`).toBe(canonicalKey(steps![i]!.state));
      }
      // The fast path: the same path state for state, and the model layer's verdict and length.
      const fastPath = timed(() => shortestCounterexample(DEFAULT_BOUNDS, overrides, expected));
      const keys = (p: readonly { state: FencingState }[] | null) => p?.map((x) => canonicalKey(x.state));
      expect(keys(steps)).toEqual(keys(fastPath.value));
      if (WHOLE_GRAPH.includes(entry.id)) {
        // The whole mutated graph, the same counts both ways (a key that merged states TLC keeps apart shrinks it).
        const whole = (x: { distinct: number; generated: number; selfLoops: number }) => ({ distinct: x.distinct, generated: x.generated, selfLoops: x.selfLoops });
        const onSeam = timed(() => exploreSystem(mutated, { invariants: [] }));
        const onFast = timed(() => explore({ bounds: DEFAULT_BOUNDS, overrides, invariants: [] }));
        expect(whole(onSeam.value)).toEqual(whole(onFast.value));
        timings.push([`${entry.id} whole graph`, `${onSeam.value.distinct} states, ${onSeam.value.generated} generated`, onFast.ms, onSeam.ms]);
      }
      const layer = await runModelMutant(entry, fast.value, { traceDir });
      expect(layer).toMatchObject({ verdict: 'killed', violated: expected, traceLength: steps!.length });
      // TLC's committed counterexample has the same length.
      const ev = readFencingSystemEvidence(entry.id);
      expect(ev.freshness).toEqual({ fresh: true });
      expect(ev.evidence).toMatchObject({ violated: expected, traceLength: steps!.length });
      timings.push([`${entry.id} counterexample`, `${steps!.length} states, breaks ${expected}`, fastPath.ms, path.ms]);
    });
  }
});
