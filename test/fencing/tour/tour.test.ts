/**
 * The conformance tour on real Valkey: the unmutated implementation's graph is the model's, and a
 * counterexample replays from Init. (Changed implementations: mutants.test.ts.)
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../src/core/project-root.js';
import { runConform } from '../../../src/systems/fencing/tour/run.js';
import { useTourWorld } from './world.js';
import { modelTour } from '../../../src/systems/fencing/tour/model-graph.js';
import { DEFAULT_BOUNDS } from '../../../src/systems/fencing/state.js';
import { loadManifest, mutantsFor } from '../../../src/core/manifest.js';
import { loadPatch } from '../../../src/systems/fencing/impl-runner.js';

const tourWorld = useTourWorld();

const evidence = (name: string) => JSON.parse(readFileSync(resolve(projectRoot, `evidence/tlc/fencing/${name}.json`), 'utf8')) as { distinct: number; traceLength?: number; violated?: string };

describe('the conformance tour', () => {
  it('the model side counts what TLC counts: 4117 states and its labelled transitions', () => {
    const m = modelTour(DEFAULT_BOUNDS);
    expect(m.totals.states).toBe(evidence('base').distinct);
    expect(m.totals.transitions).toBe(15636);
    expect(m.totals.refused).toBeGreaterThan(m.totals.transitions);
  });

  it('the unmutated scripts, gate and door: the real graph is the model graph, every refusal included', async () => {
    const { result: r } = await runConform({ bounds: DEFAULT_BOUNDS, world: tourWorld(), saveTrace: false });
    expect(r.failure, r.failure ? `${r.failure.check}: ${r.failure.message}` : '').toBeNull();
    expect(r.covered).toEqual({ states: r.model.states, transitions: r.model.transitions, refused: r.model.refused });
    expect(r.states).toBe(4117);
    expect(r.attempts).toBe(r.model.attempts);
    expect(r.renewed).toBe(r.model.renewed);
    expect(r.readSideChecks).toBe(4117);
    expect(r.equalToModel).toBe(true);
    // Every mode was visited on its own topology: some states are compatible and enabled.
    for (const [name, c] of Object.entries(r.byAction)) {
      expect(c.transitions, name).toBe(c.modelTransitions);
      expect(c.refused, name).toBe(c.modelRefused);
    }
    expect(r.byAction.Enable!.transitions).toBeGreaterThan(0);
  });

  it('a counterexample is saved as a trace that `trace replay` runs from Init to the same violation', async () => {
    const m6 = mutantsFor(loadManifest(), 'impl').find((m) => m.id === 'M6')!;
    const run = await runConform({ bounds: DEFAULT_BOUNDS, world: tourWorld(), invariant: 'Inv_SingleAuthority', patch: await loadPatch(m6), mutant: 'M6' });
    expect(run.replay).toBe(`fencecheck trace replay ${run.tracePath}`);
    let out = '';
    let code = 0;
    try {
      out = execFileSync(process.execPath, ['bin/fencecheck.mjs', 'trace', 'replay', run.tracePath!], { cwd: projectRoot, encoding: 'utf8', env: { ...process.env, FENCECHECK_VALKEY_PROVIDER: 'native' } });
    } catch (err) {
      const e = err as { status: number; stdout: string };
      code = e.status;
      out = e.stdout;
    }
    expect(code).toBe(1);
    expect(out).toMatch(new RegExp(`real keyspace breaks Inv_SingleAuthority at step ${run.result.failure!.path.length - 1}`));
  });
});
