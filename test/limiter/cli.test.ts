// `fencecheck limiter` as a real process: report envelope, exit codes, replay of a counterexample.
import { describe, expect, it } from 'vitest';
import type { StageReport } from '../../src/core/stage-report.js';
import { runCli } from '../verify/run-cli.js';

describe('fencecheck limiter', () => {
  it('--json: passed, with per-row case counts, on standalone', async () => {
    const r = await runCli(['limiter', '--topology', 'standalone', '--runs', '40', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as StageReport;
    expect(report).toMatchObject({ schema: 'fencecheck.stage/1', stage: 'limiter', status: 'passed' });
    expect(report.counts?.cases).toBe(40);
    expect(report.counts?.['invariants.failed']).toBe(0);
    expect(report.counts?.['invariants.passed']).toBeGreaterThan(8);
    expect(Object.keys(report.counts ?? {})).toContain('cases.deny-first');
  });

  it('prints the transition table; a patched limiter fails with a replayable seed and path', async () => {
    const bad = await runCli(['limiter', '--topology', 'standalone', '--runs', '300', '--no-invariants', '--patch', 'mutants/limiter/impl/L1.ts']);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/^deny\s+any\s+deny first \(1\)/m);
    const m = /replay: fencecheck limiter --topology standalone --seed=(-?\d+) --path=(\S+)/.exec(bad.stderr);
    expect(m, bad.stderr).not.toBeNull();
    const again = await runCli(['limiter', '--topology', 'standalone', '--no-invariants', '--patch', 'mutants/limiter/impl/L1.ts', `--seed=${m![1]!}`, `--path=${m![2]!}`, '--json']);
    expect(again.code).toBe(1);
    const failed = JSON.parse(again.stdout) as StageReport<{ replay: string; sections: { id: string }[] }>;
    expect(failed).toMatchObject({ status: 'failed' });
    // The report names its one replay command (the patch included) and carries the reports' limiter section.
    expect(failed.details!.replay).toMatch(/^fencecheck limiter --topology standalone --seed=-?\d+ --path=\S+ --patch mutants\/limiter\/impl\/L1\.ts$/);
    expect(failed.details!.sections.map((x) => x.id)).toEqual(['stage-limiter']);
  });

  it('not run without Valkey, bad input and usage have their own exit codes', async () => {
    const none = await runCli(['limiter', '--provider', 'external', '--json'], { FENCECHECK_VALKEY_URL: '', FENCECHECK_VALKEY_CLUSTER: '' });
    expect(none.code).toBe(2);
    expect(JSON.parse(none.stdout)).toMatchObject({ status: 'not-run' });
    expect((await runCli(['limiter', '--patch', 'no/such/patch.ts'])).code).toBe(3);
    expect((await runCli(['limiter', '--runs', '0'])).code).toBe(64);
    expect((await runCli(['limiter', '--path', '1:2'])).code).toBe(64);
  });
});
