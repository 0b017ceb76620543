import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_BOUNDS, canonicalKey } from '../../../src/systems/fencing/state.js';
import { loadManifest, mutantsFor, type MutantEntry } from '../../../src/core/manifest.js';
import { runner } from '../../../src/mutants/layers/model.js';
import { exploreSystem } from '../../../src/seam/explore.js';
import { readSystemEvidence } from '../../../src/seam/evidence.js';
import { importModelPatch } from '../../../src/seam/model-patch.js';
import { runSeamModelMutant } from '../../../src/seam/model-mutant.js';
import type { AnySystem } from '../../../src/seam/package.js';
import { FENCING_OVERRIDABLE, fencingSystem } from '../../../src/systems/fencing/system.js';
import { loadTraceFile as loadTrace } from '../../../src/trace/load.js';
import { stateFromItf } from '../../../src/seam/trace.js';
import { nextState, type FencingEvent, type FencingOverrides } from '../../../models/fencing/index.js';
import type { MutantResult } from '../../../src/core/verdict.js';
import { ownedTempDir } from '../../../src/core/temp-dir.js';

const fencing = fencingSystem();
const traceDir = ownedTempDir('model-mutants');
afterAll(() => rmSync(traceDir, { recursive: true, force: true }));

const manifest = loadManifest();
const entries = mutantsFor(manifest, 'model', 'fencing');
const sys = fencingSystem(DEFAULT_BOUNDS);
const base = exploreSystem(sys);
const runModelMutant = (e: MutantEntry, b: typeof base, o: { traceDir: string }) => runSeamModelMutant(e, sys as unknown as AnySystem, b as never, o);
const loadModelPatch = async (e: MutantEntry) => (await importModelPatch(e, FENCING_OVERRIDABLE)) as FencingOverrides;
const fixture = (id: string, target: string, file: string): MutantEntry => ({
  id,
  system: 'fencing',
  target,
  kind: 'guard',
  description: 'test fixture',
  realBug: 'none',
  expectedInvariant: 'Inv_SingleAuthority',
  layers: { model: { patch: `test/fencing/model/fixtures/${file}` } },
});

// One run of the nine mutants, shared by the tests that read its results and started by whichever of
// them runs first, so each of them also runs (and asserts) alone: `vitest run -t NAME`.
const ALL_IDS = ['M1', 'M2', 'M3', 'M4', 'M5', 'M6', 'M7', 'M8', 'M9'];
let shared: Promise<{ results: MutantResult[]; lines: string[] }> | undefined;
function mutantResults(): Promise<{ results: MutantResult[]; lines: string[] }> {
  shared ??= (async () => {
    const lines: string[] = [];
    const results = await runner.run(entries, { traceDir, log: (l) => lines.push(l) });
    return { results, lines };
  })();
  return shared;
}

describe('model-layer mutants', () => {
  it('kills all nine fencing mutants, each by its expected invariant', { timeout: 300_000 }, async () => {
    const { results, lines } = await mutantResults();
    expect(results.map((r) => r.id)).toEqual(['M1', 'M2', 'M3', 'M4', 'M5', 'M6', 'M7', 'M8', 'M9']);
    for (const r of results) {
      expect(r, r.id).toMatchObject({ layer: 'model', verdict: 'killed', violated: r.expectedInvariant });
      expect(r.traceLength, r.id).toBeGreaterThan(0);
    }
    // M4 and M8 fork authority and re-issue a generation in the same step.
    expect(results.find((r) => r.id === 'M4')?.alsoBroken).toContain('Inv_Monotonic');
    // Each counterexample is printed: the steps with their changed variables.
    expect(lines.join('\n')).toMatch(/AcquireB\(p1\)\s+newLease: \[owner \|-> None, gen \|-> 0\] → \[owner \|-> p1, gen \|-> \d\]/);
  });

  it('saves each counterexample as a valid trace that the mutated machine replays step by step', { timeout: 300_000 }, async () => {
    const { results } = await mutantResults();
    expect(results.map((r) => r.id)).toEqual(ALL_IDS);
    for (const r of results) {
      expect(r.verdict, r.id).toBe('killed');
      const trace = loadTrace(join(traceDir, `model-${r.id}.json`));
      expect(trace).toMatchObject({ source: 'model', mutant: r.id, violated: r.expectedInvariant });
      expect(trace.steps).toHaveLength(r.traceLength!);
      expect(trace.brokenAtEnd).toContain(r.expectedInvariant);
      const overrides = await loadModelPatch(entries.find((e) => e.id === r.id)!);
      for (let i = 1; i < trace.steps.length; i++) {
        const step = trace.steps[i]!;
        const ev = { type: step.action, ...step.params } as FencingEvent;
        const next = nextState(stateFromItf(fencing, trace.steps[i - 1]!.state), ev, DEFAULT_BOUNDS, overrides);
        expect(next && canonicalKey(next), `${r.id} step ${i}`).toBe(canonicalKey(stateFromItf(fencing, step.state)));
      }
    }
  });

  const tlc = ALL_IDS.map((id) => readSystemEvidence('fencing', id));
  it.skipIf(!tlc.every((e) => e.freshness.fresh))('kills each mutant with the same invariant and an equally short counterexample as TLC', { timeout: 300_000 }, async () => {
    const { results } = await mutantResults();
    const tlc = ALL_IDS.map((id) => readSystemEvidence('fencing', id).evidence!);
    expect(results.map((r) => r.id)).toEqual(ALL_IDS);
    expect(tlc.map((e) => e.mutant?.id).sort()).toEqual(ALL_IDS);
    for (const r of results) {
      expect(r.verdict, r.id).toBe('killed');
      const t = tlc.find((e) => e.mutant?.id === r.id);
      expect(t, r.id).toBeDefined();
      expect({ id: r.id, verdict: t!.verdict, violated: t!.violated, length: t!.traceLength }).toEqual({ id: r.id, verdict: r.verdict, violated: r.violated, length: r.traceLength });
    }
  });

  it('reports a mutant with the base reachable set as equivalent, not as a survivor', async () => {
    const r = await runModelMutant(fixture('X1', 'MigrateB_NewLeaseFree', 'redundant-migrate-guard.ts'), base, { traceDir });
    expect(r.verdict).toBe('equivalent');
    expect(r.reason).toContain(`${base.distinct} states`);
  });

  it('reports a mutant that changes the reachable set but breaks nothing as survived', async () => {
    const r = await runModelMutant(fixture('X2', 'UpgradePod_OneBelowTarget', 'no-upgrades.ts'), base, { traceDir });
    expect(r.verdict).toBe('survived');
  });

  it('reports a patch that names a guard the machine lacks as invalid', async () => {
    const r = await runModelMutant(fixture('X3', 'AcquireB_OldLeaseFree', 'unknown-name.ts'), base, { traceDir });
    expect(r.verdict).toBe('invalid');
    expect(r.reason).toMatch(/no guard named AcquireB_OldLeaseFre/);
  });
});
