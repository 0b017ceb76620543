/**
 * `fencecheck trace replay` on real Valkey (a native standalone node the harness starts and stops),
 * through the replay fencing supplies (src/systems/fencing/replay.ts) and the generic replay loop:
 * the M1 counterexample shows two live leases on the real keyspace at the step the model predicts;
 * the same trace without the mutant is refused by the shipped scripts at that step.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import type { ReplayResult } from '../../src/trace/replay.js';
import { runCli } from '../verify/run-cli.js';
import { M1_BREAK_STEP, m1Trace } from './fixtures.js';

const owner = (v: unknown) => (v as { owner: string }).owner;

const replay = (file: string, json = true) => runCli(['trace', 'replay', file, '--provider', 'native', ...(json ? ['--json'] : [])]);

// Every file a test writes goes here, removed at the end (also when a test fails).
const scratch = mkdtempSync(join(tmpdir(), 'fencecheck-replay-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function write(name: string, content: unknown): string {
  const path = join(mkdtempSync(join(scratch, 'f-')), name);
  writeFileSync(path, JSON.stringify(content));
  return path;
}

describe('fencecheck trace replay', () => {
  it('M1 (model trace): two live leases on the real keyspace at the predicted step, with the mutated B script', async () => {
    const r = await replay(write('m1.json', m1Trace('model')), false);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`the real system breaks Inv_SingleAuthority at step ${M1_BREAK_STEP} (AcquireB(p1)); the trace predicted step ${M1_BREAK_STEP}.`);
    expect(r.stdout).toContain('the real state after it: newLease.owner = p1, newLease.gen = 2, newGen = 2, lastIssued = 2');
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
    expect(owner(stop.real.oldLease)).not.toBe('None');
    expect(owner(stop.real.newLease)).not.toBe('None');
    expect(stop.mismatches).toEqual([]);
    expect(result).toMatchObject({ schema: 'fencecheck.replay/2', system: 'fencing', mutant: 'M1' });
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
    expect(owner(last.real.newLease)).toBe('None');
    expect(last.mismatches).toEqual(['newLease', 'newGen', 'lastIssued']);
  });

  it("reports could not run (exit 2) for another system's mutant or one not in the manifest, before starting Valkey", async () => {
    const r = await replay(write('l1.json', { ...m1Trace('model'), mutant: 'L1' }));
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('fencecheck trace replay: could not run: mutant L1 is a limiter mutant, not one of fencing');
    const gone = await replay(write('m99.json', { ...m1Trace('model'), mutant: 'M99' }));
    expect(gone.code).toBe(2);
    expect(gone.stderr.trim()).toBe('fencecheck trace replay: could not run: mutant M99 is not in mutants/manifest.json');
  });

  it('refuses a step the step driver has no way to take (exit 3, one line, before starting Valkey)', async () => {
    const t = m1Trace('model');
    const bad = { ...t, steps: t.steps.map((s, i) => (i === 3 ? { ...s, params: { p: 'p7' } } : s)) };
    const r = await replay(write('p7.json', bad));
    expect(r.code).toBe(3);
    expect(r.stderr.trim()).toMatch(/^fencecheck trace: .*p7\.json: steps\[3\]: pod "p7" is not one of the trace's bounds\.pods \(p1, p2, p3\)$/);
  });
});
