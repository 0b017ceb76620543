/**
 * The conformance tour on real Valkey: the unmutated implementation's graph is the model's, its
 * four shards merge into the same report and digest, and a counterexample replays from Init.
 * (Changed implementations: mutants.test.ts.)
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../src/core/project-root.js';
import { runConform } from '../../../src/systems/fencing/tour/run.js';
import { useTourRig, WHOLE_TOURS_MS } from './rig.js';
import { modelGraph, modelTotals } from '../../../src/seam/tour/model-graph.js';
import { WHOLE } from '../../../src/seam/tour/shard.js';
import { fencingTourModel } from '../../../src/systems/fencing/tour/system.js';
import { DEFAULT_BOUNDS } from '../../../src/systems/fencing/state.js';
import { loadManifest, mutantsFor } from '../../../src/core/manifest.js';
import { loadPatch } from '../../../src/systems/fencing/impl-runner.js';
import { mergeTourReports } from '../../../src/seam/tour/merge.js';
import { tourStageReport, type TourReportDetails } from '../../../src/seam/tour/stage.js';

const tourRig = useTourRig();
let whole: ReturnType<typeof runConform> | undefined;
/** The unsharded tour, run once for the tests that compare with it. */
const unsharded = () => (whole ??= runConform({ bounds: DEFAULT_BOUNDS, rig: tourRig(), saveTrace: false }));

const evidence = (name: string) => JSON.parse(readFileSync(resolve(projectRoot, `evidence/tlc/fencing/${name}.json`), 'utf8')) as { distinct: number; traceLength?: number; violated?: string };

describe('the conformance tour', () => {
  it('the model side counts what TLC counts: 4117 states and its labelled transitions', () => {
    const m = modelTotals(modelGraph(fencingTourModel(DEFAULT_BOUNDS)), WHOLE);
    expect(m.states).toBe(evidence('base').distinct);
    expect(m.transitions).toBe(15636);
    expect(m.refused).toBe(84378);
    expect(m.attempts).toBe(104958);
  });

  it(
    'the unmutated scripts, gate and door: the real graph is the model graph, every refusal included',
    async () => {
      const { result: r } = await unsharded();
      expect(r.failure, r.failure ? `${r.failure.check}: ${r.failure.message}` : '').toBeNull();
      expect(r.covered).toEqual({ states: r.model.states, transitions: r.model.transitions, refused: r.model.refused });
      expect(r.states).toBe(4117);
      expect(r.attempts).toBe(r.model.attempts);
      expect(r.unchanged).toBe(r.model.unchanged);
      expect(r.stateChecks).toBe(4117);
      expect(r.digest).toBe(r.whole.digest);
      expect(r.equalToModel).toBe(true);
      // Every mode was visited on its own topology: some states are compatible and enabled.
      for (const [name, c] of Object.entries(r.byAction)) {
        expect(c.transitions, name).toBe(c.modelTransitions);
        expect(c.refused, name).toBe(c.modelRefused);
      }
      expect(r.byAction.Enable!.transitions).toBeGreaterThan(0);
    },
    WHOLE_TOURS_MS,
  );

  it(
    'four shards (--shard i/4) merge into the unsharded report: the same counts, rows and digest',
    async () => {
      const { result: r } = await unsharded();
      const startedAt = new Date();
      const shards: Awaited<ReturnType<typeof runConform>>[] = [];
      // One after another on the same rig (sessions are independent keys).
      for (let i = 1; i <= 4; i++) shards.push(await runConform({ bounds: DEFAULT_BOUNDS, rig: tourRig(), shard: { index: i, count: 4 }, saveTrace: false }));
      for (const s of shards) {
        expect(s.result.failure).toBeNull();
        expect(s.result.equalToModel).toBe(true);
        expect(s.result.states).toBeGreaterThan(800); // an even spread: about 4117 / 4
      }
      const merged = mergeTourReports(shards.map((s) => tourStageReport(s.result, { stage: 'conform', startedAt })).reverse());
      const plain = tourStageReport(r, { stage: 'conform', startedAt });
      expect(merged.status).toBe('passed');
      const d = merged.details as TourReportDetails;
      expect(d.digest).toBe(r.digest);
      expect({ ...merged.counts, tourMs: 0 }).toEqual({ ...plain.counts, tourMs: 0 });
      expect(d.byAction).toEqual(plain.details!.byAction);
      expect(merged.counts).toMatchObject({ states: 4117, transitions: 15636, refused: 84378, attempts: 104958 });
      // A missing shard is an error, never a pass.
      expect(() => mergeTourReports(shards.slice(1).map((s) => tourStageReport(s.result, { stage: 'conform', startedAt })))).toThrow(/shard 1\/4 missing/);
    },
    WHOLE_TOURS_MS,
  );

  it('a counterexample is saved as a trace that `trace replay` runs from Init to the same violation', async () => {
    const m6 = mutantsFor(loadManifest(), 'impl').find((m) => m.id === 'M6')!;
    const run = await runConform({ bounds: DEFAULT_BOUNDS, rig: tourRig(), invariant: 'Inv_SingleAuthority', patch: await loadPatch(m6), mutant: 'M6' });
    expect(run.replay).toBe(`fencecheck trace replay ${run.tracePath}`);
    let out = '';
    let code = 0;
    try {
      out = execFileSync(process.execPath, ['bin/fencecheck.mjs', 'trace', 'replay', run.tracePath!], {
        cwd: projectRoot,
        encoding: 'utf8',
        env: { ...process.env, FENCECHECK_VALKEY_PROVIDER: 'native' },
      });
    } catch (err) {
      const e = err as { status: number; stdout: string };
      code = e.status;
      out = e.stdout;
    }
    expect(code).toBe(1);
    expect(out).toMatch(new RegExp(`real system breaks Inv_SingleAuthority at step ${run.result.failure!.path.length - 1}`));
  });
});
