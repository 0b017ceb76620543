// `fencecheck tracecheck` end to end (the real CLI, real TLC): exit 0 when every trace is judged as it
// predicts (an unpatched trace accepted, a mutant's rejected at its predicted step), 1 when one is not,
// 2 without a jar or without traces; the JSON report carries the figures verify shows.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { OBSERVED_SCHEMA, type ObservedTrace } from '../../src/seam/tracecheck/format.js';
import { locateTlc } from '../../src/tlc/locate.js';

const located = locateTlc();
const why = located.ok ? '' : ` — SKIPPED: ${located.reason}`;
const dir = mkdtempSync(join(tmpdir(), 'fencecheck-tracecheck-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const V0 = { oldLease: '[owner |-> None, gen |-> 0]', oldGen: '0' };
const acquire = (p: string, gen: number) => ({ action: { name: 'AcquireO', args: [p] }, vars: { oldLease: `[owner |-> ${p}, gen |-> ${gen}]`, oldGen: String(gen) } });
const trace = (id: string, steps: ObservedTrace['steps'], predicted: number | null): ObservedTrace => ({
  system: 'fencing',
  source: 'test',
  id,
  predicted: { step: predicted, by: 'the test' },
  steps: [{ vars: V0 }, ...steps],
});
const file = (name: string, traces: ObservedTrace[]) => {
  const f = join(dir, name);
  writeFileSync(f, JSON.stringify({ schema: OBSERVED_SCHEMA, traces }));
  return f;
};
const cli = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ['bin/fencecheck.mjs', 'tracecheck', ...args], { cwd: projectRoot, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 300_000 });

describe('fencecheck tracecheck', () => {
  const good = file('good.json', [trace('accepted', [acquire('p1', 1)], null), trace('mutant', [acquire('p1', 1), acquire('p2', 2)], 2)]);
  const off = file('off.json', [trace('rejected, predicted accepted', [acquire('p1', 1), acquire('p2', 2)], null)]);

  it.skipIf(!located.ok)(`exit 0 when every verdict is as predicted, 1 when one is not, with the figures in --json${why}`, () => {
    const ok = cli([good, '--json']);
    expect(ok.status, ok.stderr).toBe(0);
    const report = JSON.parse(ok.stdout) as { status: string; counts: Record<string, number>; details: { verdicts: { id: string; accepted: boolean; rejectedAt?: number; asPredicted: boolean }[] } };
    expect(report.status).toBe('passed');
    expect(report.counts).toMatchObject({ files: 1, traces: 2, steps: 3, accepted: 1, rejected: 1, asPredicted: 2, notAsPredicted: 0 });
    expect(report.counts.tlcMs).toBeGreaterThan(0);
    expect(report.details.verdicts).toEqual([
      expect.objectContaining({ id: 'accepted', accepted: true }),
      expect.objectContaining({ id: 'mutant', accepted: false, rejectedAt: 2, asPredicted: true }),
    ]);
    const bad = cli([good, off]);
    expect(bad.status, bad.stderr).toBe(1);
    expect(bad.stdout).toMatch(/rejected, predicted accepted .*rejected at step 2.*predicted: accepted.*AcquireO\(p2\) is not enabled/);
    expect(bad.stdout).toMatch(/^tracecheck: failed: 3 traces, 5 steps: 1 accepted, 2 rejected; 1 not as predicted/m);
  });

  it('not run (exit 2) without a jar, and without traces to check', () => {
    const noJar = cli([good, '--json'], { TLA2TOOLS_JAR: join(dir, 'no-such.jar') });
    expect(noJar.status).toBe(2);
    expect(JSON.parse(noJar.stdout)).toMatchObject({ status: 'not-run', reason: expect.stringMatching(/no-such\.jar does not exist/) });
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const none = cli(['--observed', '--json'], { FENCECHECK_OBSERVED_DIR: empty });
    expect(none.status).toBe(2);
    expect(JSON.parse(none.stdout)).toMatchObject({ status: 'not-run', reason: expect.stringMatching(/^no observed traces in /) });
  });
});
