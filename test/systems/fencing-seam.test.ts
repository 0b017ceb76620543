// Fencing on the seam: the generic exploration of fencingSystem() gives TLC's committed figures, and
// every model mutant's shortest counterexample is a path of the mutated machine as long as TLC's.
import { describe, expect, it } from 'vitest';
import { nextState, type FencingEvent, type FencingOverrides } from '../../models/fencing/index.js';
import { DEFAULT_BOUNDS, canonicalKey } from '../../src/systems/fencing/state.js';
import { FENCING_OVERRIDABLE, fencingSystem } from '../../src/systems/fencing/system.js';
import { loadManifest, mutantsFor } from '../../src/core/manifest.js';
import { importModelPatch, mutatedSystem } from '../../src/seam/model-patch.js';
import { exploreSystem, shortestSystemCounterexample } from '../../src/seam/explore.js';
import { readBaseGraph, readSystemEvidence } from '../../src/seam/evidence.js';
import { compareStateSets } from '../../src/seam/parity.js';
import { checkSystem } from '../../src/seam/check.js';
import { SYSTEMS } from '../../src/registry/systems.js';
import type { InvariantName } from '../../src/systems/fencing/invariants.js';

const sys = fencingSystem();
const seam = exploreSystem(sys);
const entries = mutantsFor(loadManifest(), 'model', 'fencing');

describe('fencing on the seam', () => {
  it("reaches exactly TLC's committed states with TLC's generated count and depth, every invariant holding", () => {
    const tlc = readBaseGraph('fencing');
    expect('reason' in tlc ? tlc.reason : 'fresh').toBe('fresh');
    if ('reason' in tlc) return;
    const p = compareStateSets(seam.keys, tlc.graph.states);
    expect(p, JSON.stringify(p)).toMatchObject({ equal: true, modelCount: 4117, tlcCount: 4117 });
    expect(seam.generated).toBe(tlc.evidence.generated);
    expect(seam.depth).toBe(tlc.evidence.depth);
    expect(seam.verdicts.every((v) => v.holds)).toBe(true);
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
    it(`${entry.id}: the shortest counterexample breaks ${entry.expectedInvariant}, each step the mutated machine's, as long as TLC's`, async () => {
      const expected = entry.expectedInvariant as InvariantName;
      const mutated = await mutatedSystem(sys, entry);
      const steps = shortestSystemCounterexample(mutated, expected);
      expect(steps, `${entry.id} survived on the seam`).not.toBeNull();
      expect(mutated.invariants[expected]!(steps!.at(-1)!.state)).toBe(false);
      const overrides = (await importModelPatch(entry, FENCING_OVERRIDABLE)) as FencingOverrides;
      for (let i = 1; i < steps!.length; i++) {
        const next = nextState(steps![i - 1]!.state, steps![i]!.event as FencingEvent, DEFAULT_BOUNDS, overrides);
        expect(next && canonicalKey(next), `${entry.id} step ${i}`).toBe(canonicalKey(steps![i]!.state));
      }
      const ev = readSystemEvidence('fencing', entry.id);
      expect(ev.freshness).toEqual({ fresh: true });
      expect(ev.evidence).toMatchObject({ violated: expected, traceLength: steps!.length });
    });
  }
});
