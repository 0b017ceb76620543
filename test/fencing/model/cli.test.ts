import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../src/core/project-root.js';
import { readBaseGraph } from '../../../src/seam/evidence.js';
import type { StageReport } from '../../../src/core/stage-report.js';
import { loadTraceFile as loadTrace } from '../../../src/trace/load.js';

const run = (...args: string[]) => {
  const r = spawnSync(process.execPath, [join(projectRoot, 'bin/fencecheck.mjs'), ...args], { cwd: projectRoot, encoding: 'utf8', timeout: 110_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

describe('fencecheck explore / parity / diagram', () => {
  it('explore --json reports the states and a verdict per invariant', () => {
    const r = run('explore', '--system', 'fencing', '--const', 'Pods=2', '--const', 'MaxGen=2', '--json');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as StageReport<{ systems: { verdicts: { name: string; holds: boolean }[] }[] }>;
    expect(report).toMatchObject({ schema: 'fencecheck.stage/1', stage: 'explore', status: 'passed' });
    expect(report.counts?.distinct).toBeGreaterThan(100);
    expect(report.counts?.generated).toBe(report.counts!.transitions! + 1);
    expect(report.details!.systems[0]!.verdicts.every((v) => v.holds)).toBe(true);
  });

  it('explore rejects bad bounds with a usage error; a tiny limit is not run, never passed', () => {
    expect(run('explore', '--system', 'fencing', '--const', 'Pods=0').code).toBe(64);
    expect(run('explore', '--system', 'fencing', '--const', 'MaxGen=x').code).toBe(64);
    expect(run('explore', '--const', 'MaxGen=3').code).toBe(64); // which system's constant?
    const limited = run('explore', '--system', 'fencing', '--limit', '10', '--json');
    expect(limited.code).toBe(2);
    expect(JSON.parse(limited.out)).toMatchObject({ status: 'not-run' });
  });

  it("explore --mutant fails on the mutant's machine and saves the shortest counterexample", () => {
    const r = run('explore', '--mutant', 'M9', '--json');
    expect(r.code).toBe(1);
    const report = JSON.parse(r.out) as StageReport;
    expect(report).toMatchObject({ stage: 'explore', status: 'failed', reason: 'broken: fencing/M9 Inv_SlotRulesSafe' });
    expect(report.traces).toHaveLength(1);
    const trace = loadTrace(resolve(projectRoot, report.traces![0]!));
    expect(trace).toMatchObject({ source: 'model', mutant: 'M9', violated: 'Inv_SlotRulesSafe' });
    expect(trace.steps.at(-1)?.action).toBe('EnterCompatible');
    expect(run('explore', '--mutant', 'M99').code).toBe(3);
  });

  it('parity exits 0 only on equal sets, 2 with the reason when the evidence is not usable', () => {
    const evidence = readBaseGraph('fencing');
    const r = run('parity', '--system', 'fencing', '--json');
    const report = JSON.parse(r.out) as StageReport;
    if (!('reason' in evidence)) {
      expect(report.status === 'passed' ? r.code : -1).toBe(0);
      expect(report.counts?.machineDistinct).toBe(report.counts?.tlcDistinct);
    } else {
      expect(r.code).toBe(2);
      expect(report).toMatchObject({ status: 'not-run' });
      expect(report.reason).toMatch(/TLC evidence/);
    }
  });

  it('diagram --check passes on the committed diagram', () => {
    expect(run('diagram', '--check').code).toBe(0);
  });
});
