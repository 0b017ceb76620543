// TLC judges what the real code did: the observed traces of real runs on real Valkey,
// recorded by each system's own run, checked by the engine against the system's spec (Dropped = {}).
// Unpatched runs are accepted; each mutant's counterexample run is rejected at the step its own run
// predicts (the tour's model, the walk's twin and checkers) and at the mutated action. These are the
// tests that fail if a recorder logged the model's prediction instead of the real system: the
// unmutated model's predictions are behaviours of the spec, so such a trace would be accepted.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadManifest, mutantsFor } from '../../src/core/manifest.js';
import { checkTraces } from '../../src/seam/tracecheck/check.js';
import { parseObservedText, type ObservedTrace } from '../../src/seam/tracecheck/format.js';
import { observedFiles } from '../../src/seam/tracecheck/store.js';
import type { TraceTarget } from '../../src/seam/tracecheck/target.js';
import { loadPatch } from '../../src/systems/fencing/impl-runner.js';
import { DEFAULT_BOUNDS } from '../../src/systems/fencing/state.js';
import { fencingSystem } from '../../src/systems/fencing/system.js';
import { runConform } from '../../src/systems/fencing/tour/run.js';
import { openTourRig, type TourRig } from '../../src/systems/fencing/tour/rig.js';
import { tourObservedTrace } from '../../src/systems/fencing/tracecheck.js';
import { openDriveWorld, runPauseDrive, type DriveWorld } from '../../src/systems/pause/drive/index.js';
import { walkTraces } from '../../src/systems/pause/drive/traces.js';
import { loadPausePatch } from '../../src/systems/pause/patch.js';
import { pauseSystem } from '../../src/systems/pause/system.js';
import { PAUSE_TRACE_VALIDATION } from '../../src/systems/pause/tracecheck.js';
import { projectRoot } from '../../src/core/project-root.js';
import { startTopology, type Topology } from '../../src/valkey/index.js';
import { locateTlc } from '../../src/tlc/locate.js';
import { runFencingSuite } from '../../properties/fencing/suite.js';

const located = locateTlc();
const why = located.ok ? '' : ` — SKIPPED: ${located.reason}`;
const tools = located.ok ? located.tools : undefined;
const targetOf = (sys: { name: string; spec: string; config: string; variables: readonly string[] }): TraceTarget => ({
  system: sys.name,
  spec: sys.spec,
  config: sys.config,
  variables: sys.variables,
});
const judge = (traces: readonly ObservedTrace[], target: TraceTarget) => checkTraces(traces, () => target, { ...(tools && { tools }) });
const readDir = (dir: string) => observedFiles(dir).flatMap((f) => parseObservedText(readFileSync(f, 'utf8'), f));

describe("fencing: property runs and the tour's mutant counterexamples", () => {
  const FENCING = targetOf(fencingSystem());
  let dir: string;
  let rig: TourRig;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fencecheck-observed-'));
    rig = await openTourRig({ provider: 'native' });
  }, 60_000);
  afterAll(async () => {
    await rig?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.skipIf(!located.ok)(`every unpatched property run's observed trace is accepted${why}`, async () => {
    const suite = await runFencingSuite({ topology: 'standalone', runs: 8, doorRuns: 0, maxCommands: 30, seed: 26, record: { dir } });
    expect(suite.passed).toBe(true);
    const traces = readDir(dir);
    expect(traces).toHaveLength(8);
    const r = await judge(traces, FENCING);
    expect(r.batches).toHaveLength(1);
    expect(r.verdicts.filter((v) => !v.accepted).map((v) => v.rejection!.reason)).toEqual([]);
    expect(r.steps).toBeGreaterThan(8 * 5);
  });

  const manifest = loadManifest();
  const entry = (id: string) => mutantsFor(manifest, 'impl', 'fencing').find((m) => m.id === id)!;
  // M3: the claimed AcquireB is enabled; only the observed keyspace (generation 1, not 2) is not what it gives.
  for (const [id, action] of [
    ['M1', 'AcquireB'],
    ['M3', 'AcquireB'],
    ['M4', 'AdvanceTarget'],
    ['M9', 'EnterCompatible'],
  ] as const) {
    it.skipIf(!located.ok)(`${id}'s tour counterexample is rejected at the step the tour's model predicts, at ${action}${why}`, async () => {
      const m = entry(id);
      const run = await runConform({ bounds: DEFAULT_BOUNDS, patch: await loadPatch(m), invariant: m.expectedInvariant as never, rig, saveTrace: false });
      const f = run.result.failure!;
      expect(f.check).toBe(m.expectedInvariant);
      const trace = tourObservedTrace(f.path, { id, bounds: DEFAULT_BOUNDS, mutant: id });
      expect(trace.predicted!.step).not.toBeNull();
      const [v] = (await judge([trace], FENCING)).verdicts;
      expect(v!.accepted).toBe(false);
      expect(v!.rejection!.step).toBe(trace.predicted!.step);
      expect(v!.rejection!.claimed).toMatch(new RegExp(`^${action}\\b`));
      expect(v!.asPredicted).toBe(true);
      if (id === 'M3') expect(v!.rejection!.disagree.map((d) => d.name)).toEqual(expect.arrayContaining(['newLease', 'newGen']));
    });
  }
});

describe('pause: walks on real replicas', () => {
  // With the package's own trace validation (Tick silent: real time passes without the driver's step).
  const PAUSE = { ...targetOf(pauseSystem()), ...PAUSE_TRACE_VALIDATION };
  let topology: Topology;
  let world: DriveWorld;
  beforeAll(async () => {
    topology = await startTopology({ kind: 'standalone' }, { provider: 'native' });
    world = await openDriveWorld(topology);
  }, 60_000);
  afterAll(async () => {
    await world?.close();
    await topology?.stop();
  });

  it.skipIf(!located.ok)(`unpatched walks are accepted; P1's and P5's counterexample walks are rejected where the walk predicts${why}`, async () => {
    const base = await runPauseDrive(world, { walks: 4, seed: 1 });
    expect(base.violation).toBeNull();
    const traces = walkTraces(base.walks, { topology: 'standalone', seed: 1, steps: base.steps });
    const mutants: ObservedTrace[] = [];
    for (const id of ['P1', 'P5']) {
      const m = mutantsFor(loadManifest(), 'impl', 'pause').find((e) => e.id === id)!;
      const r = await runPauseDrive(world, { walks: 16, seed: 1, patch: await loadPausePatch(m.layers.impl!.patch!, projectRoot) });
      expect(r.violation, id).not.toBeNull();
      mutants.push(
        ...walkTraces(
          r.walks.filter((w) => w.index === r.violation!.walk),
          { topology: 'standalone', seed: 1, steps: r.steps, mutant: id },
        ),
      );
    }
    const r = await judge([...traces, ...mutants], PAUSE);
    expect(r.batches).toHaveLength(1);
    for (const v of r.verdicts) {
      const near = v.rejection ? JSON.stringify(v.trace.steps.slice(Math.max(0, v.rejection.step - 2), v.rejection.step + 1)) : '';
      expect({ id: v.trace.id, mutant: v.trace.mutant, asPredicted: v.asPredicted, reason: v.rejection?.reason }, near).toEqual({
        id: v.trace.id,
        mutant: v.trace.mutant,
        asPredicted: true,
        reason: v.trace.mutant ? expect.any(String) : undefined,
      });
    }
    const [p1, p5] = r.verdicts.slice(traces.length);
    expect(p1!.rejection!.claimed).toMatch(/^Deliver\(/);
    expect(p5!.rejection!.claimed).toMatch(/^Ready\(/);
  });
});
