/**
 * `fencecheck trace replay` on real Valkey (a native standalone node the harness starts and stops):
 * the M1 counterexample shows two live leases on the real keyspace at the step the model predicts;
 * the same trace without the mutant is refused by the shipped scripts at that step.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import type { ReplayResult } from '../../src/trace/replay.js';
import { runCli } from '../verify/run-cli.js';
import { M1_BREAK_STEP, m1Trace } from './fixtures.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';

const replay = (file: string, json = true) => runCli(['trace', 'replay', file, '--provider', 'native', ...(json ? ['--json'] : [])]);

function write(name: string, content: unknown): string {
  const path = join(ownedTempDir('replay'), name);
  writeFileSync(path, JSON.stringify(content));
  return path;
}

describe('fencecheck trace replay', () => {
  it('M1 (model trace): two live leases on the real keyspace at the predicted step, with the mutated B script', async () => {
    const r = await replay(write('m1.json', m1Trace('model')), false);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`real keyspace breaks Inv_SingleAuthority at step ${M1_BREAK_STEP} (AcquireB); the model predicted step ${M1_BREAK_STEP}.`);
    expect(r.stdout).toContain('two live leases on the real keyspace: old p2/1, new p1/2');
    expect(r.stdout).toContain('with mutants/fencing/impl/M1.ts');
  });

  it('M1 (the committed TLC trace): the same violation at the same step, JSON output', async () => {
    const tlcTrace = resolve(projectRoot, 'evidence/tlc/fencing/M1.json');
    expect(existsSync(tlcTrace), 'committed TLC evidence for M1').toBe(true);
    const r = await replay(tlcTrace);
    expect(r.code).toBe(1);
    const result = JSON.parse(r.stdout) as ReplayResult;
    expect(result.patch).toBe('mutants/fencing/impl/M1.ts');
    expect(result.stoppedAt).not.toBeNull();
    expect(result.stoppedAt).toBe(result.predictedAt);
    const stop = result.steps[result.stoppedAt!]!;
    expect(stop.brokenReal).toContain('Inv_SingleAuthority');
    expect(stop.real.oldLease.owner).not.toBe('None');
    expect(stop.real.newLease.owner).not.toBe('None');
    expect(stop.mismatches).toEqual([]);
  });

  it('M9 (TLC trace crossing the mode door): the keyspace is carried onto the cluster and T3 breaks there', async () => {
    const r = await replay(resolve(projectRoot, 'evidence/tlc/fencing/M9.json'));
    expect(r.code).toBe(1);
    const result = JSON.parse(r.stdout) as ReplayResult;
    expect(result.stoppedAt).toBe(result.predictedAt);
    const stop = result.steps[result.stoppedAt!]!;
    expect(stop.action).toBe('EnterCompatible');
    expect(stop.status).toBe('applied');
    expect(stop.real.mode).toBe('compatible');
    expect(stop.brokenReal).toEqual(['Inv_SlotRulesSafe']);
  });

  it('without the mutant the shipped scripts refuse the step: every invariant holds, the divergence is marked', async () => {
    const { mutant: _m, ...base } = m1Trace('model');
    const r = await replay(write('base.json', base));
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout) as ReplayResult;
    expect(result.stoppedAt).toBeNull();
    expect(result.predictedAt).toBe(M1_BREAK_STEP);
    const last = result.steps[M1_BREAK_STEP]!;
    expect(last.status).toBe('refused');
    expect(last.real.newLease.owner).toBe('None');
    expect(last.mismatches).toEqual(['newLease', 'newGen', 'lastIssued']);
  });

  it('reports not run (exit 2) for a mutant with no implementation patch, before starting Valkey', async () => {
    const r = await replay(write('l1.json', { ...m1Trace('model'), mutant: 'L1' }));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not run: mutant L1 has no implementation-layer patch/);
  });
});
