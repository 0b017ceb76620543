import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';
import { TRACE_SCHEMA, type FencingTrace } from '../../src/trace/format.js';
import M1 from '../../mutants/impl/M1.js';
import { invariantAlone } from './checks.js';
import { formatFailure } from './props.js';
import { runFencingSuite, randomSeed, suiteCoverage } from './suite.js';

// CI keeps these small; `fencecheck props` runs the full 500 (+ door runs).
const RUNS = 60;
const DOOR_RUNS = 12;

describe('fencing properties on real Valkey', () => {
  it('the real scripts and gate agree with the model and keep T1/T2/T3 and the read-side rules', async () => {
    const seed = randomSeed();
    const r = await runFencingSuite({ topology: 'both', runs: RUNS, doorRuns: DOOR_RUNS, maxCommands: 60, seed });
    const f = r.failed?.result.failure;
    expect(r.passed, f ? `${formatFailure(f)} (--topology ${r.failed!.topology})` : r.failed?.result.error ?? `seed ${seed}`).toBe(true);
    expect(r.phases.map((p) => p.result.runs)).toEqual([RUNS, DOOR_RUNS]);
    expect(r.phases.reduce((a, p) => a + p.result.commands, 0)).toBeGreaterThan(RUNS * 5);
    // The share of the model the sampled runs visited, per topology and merged.
    const cov = suiteCoverage(r);
    for (const p of r.phases) {
      expect(p.result.coverage.states).toBeGreaterThan(1);
      expect(p.result.coverage.transitions).toBeGreaterThan(0);
      expect(cov.all.states).toBeGreaterThanOrEqual(p.result.coverage.states);
    }
    expect(cov.all.states).toBeLessThan(cov.all.modelStates);
  });

  it('a counterexample replays exactly from its seed and path, and is saved as a trace', async () => {
    const checks = invariantAlone('Inv_SingleAuthority');
    const first = await runFencingSuite({ topology: 'standalone', runs: 300, doorRuns: 0, maxCommands: 60, seed: 42, patch: M1, checks, traceLabel: 'M1' });
    const f = first.failed?.result.failure;
    expect(f?.check).toBe('Inv_SingleAuthority');
    const again = await runFencingSuite({ topology: 'standalone', runs: 1, doorRuns: 0, maxCommands: 60, seed: f!.seed, path: f!.path, patch: M1, checks });
    const g = again.failed?.result.failure;
    expect(g?.check).toBe(f!.check);
    expect(g?.intents).toEqual(f!.intents);
    expect(g?.step).toBe(f!.step);
    const file = resolve(projectRoot, f!.tracePath!);
    expect(existsSync(file)).toBe(true);
    const trace = JSON.parse(readFileSync(file, 'utf8')) as FencingTrace;
    expect(trace).toMatchObject({ schema: TRACE_SCHEMA, system: 'fencing', source: 'props', mutant: 'M1', violated: 'Inv_SingleAuthority', seed: 42 });
    expect(trace.steps[0]!.action).toBe('Init');
    expect(trace.steps.at(-1)!.state.oldLease.owner).not.toBe('None');
    expect(trace.steps.at(-1)!.state.newLease.owner).not.toBe('None');
  });

});
