/**
 * `fencecheck verify` end to end through the real CLI, on the cheap stages only (TLC without a jar,
 * the evidence check): the acceptance's "exits 1 naming the TLC stage" and "passes with
 * --allow-not-run tlc and writes all reports", without running the heavy stages.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { VerifyReport } from '../../src/report/verify-doc.js';
import { runCli } from './run-cli.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';

// Whatever this machine has, the TLC stage must find no jar here.
const NO_JAR = { TLA2TOOLS_JAR: '/nonexistent/tla2tools.jar' };
const verify = (args: string[]) => runCli(['verify', ...args], NO_JAR);

const outDir = () => ownedTempDir('verify-cli');

describe('fencecheck verify (CLI)', () => {
  it('exits 1 naming the TLC stage when it did not run and --allow-not-run does not name it', async () => {
    const out = outDir();
    const r = await verify(['--stages', 'tlc', '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/stage tlc not run: TLA2TOOLS_JAR=\/nonexistent\/tla2tools.jar does not exist \(pass --allow-not-run tlc to accept\)/);
    expect(r.stdout).toMatch(/\[verify \+[\d.]+s\] tlc: started/);
    const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
    expect(junit).toContain('<failure message="not run and not allowed: tlc"/>');
  });

  // The quick start's main job on a machine without TLC (it failed there, the tracecheck stage
  // not run and not waived). Red without the stage's sameToolAs: tracecheck not run, exit 1.
  it('--allow-not-run tlc also accepts tracecheck not running for want of TLC (the quick start on a fresh machine)', async () => {
    const out = outDir();
    const r = await verify(['--stages', 'tlc,tracecheck', '--allow-not-run', 'tlc', '--out', out, '--json']);
    const doc = JSON.parse(r.stdout) as VerifyReport;
    expect(
      doc.stages.find((s) => s.stage === 'tracecheck'),
      r.stderr,
    ).toMatchObject({ status: 'not-run', allowedNotRun: true });
    expect(doc.verdict.reasons.filter((x) => /tracecheck/.test(x))).toEqual([]);
    expect(
      doc.verdict.waived.some((w) => /^stage tracecheck not run \(allowed\)/.test(w)),
      doc.verdict.waived.join('\n'),
    ).toBe(true);
    expect(r.code).toBe(2);
  });

  // Only TLC, allowed not to run: nothing else can change the outcome, so every assertion holds
  // unconditionally (the evidence stage's pass and failure are forced with captured fixtures in
  // orchestrator.test.ts, where the evidence verdicts fill the TLC column).
  it('with --allow-not-run tlc: TLC waived, exit 2 (nothing ran), all four reports written', async () => {
    const out = outDir();
    const r = await verify(['--stages', 'tlc', '--allow-not-run', 'tlc', '--out', out, '--json']);
    const doc = JSON.parse(r.stdout) as VerifyReport;
    expect(doc.schema).toBe('fencecheck.verify/2');
    expect(doc.stages.find((s) => s.stage === 'tlc')).toMatchObject({ status: 'not-run', allowedNotRun: true, exitCode: 2 });
    expect(doc.verdict).toMatchObject({ exitCode: 2, status: 'not-run', reasons: ['no stage ran: nothing was checked'] });
    expect(doc.verdict.waived).toHaveLength(1);
    expect(doc.verdict.waived[0]).toMatch(/^stage tlc not run \(allowed\): TLA2TOOLS_JAR=\/nonexistent\/tla2tools.jar does not exist/);
    expect(r.code).toBe(2);
    const m1 = doc.mutationMatrix.rows.find((row) => row.id === 'M1')!;
    expect(m1.cells.tla).toMatchObject({ verdict: 'not-run', stage: 'tlc' });
    for (const f of ['verify.json', 'junit.xml', 'verify.md', 'verify.html', 'stages/tlc.log']) expect(existsSync(join(out, f)), f).toBe(true);
    expect(JSON.parse(readFileSync(join(out, 'verify.json'), 'utf8'))).toEqual(doc);
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toContain('<skipped message="not run: TLA2TOOLS_JAR=/nonexistent/tla2tools.jar does not exist (allowed)"/>');
    // --json keeps stdout for the document; progress went to stderr.
    expect(r.stderr).toMatch(/tlc: not-run \(allowed\) in/);
  });

  it('rejects unknown stages and bad numbers with exit 64', async () => {
    const bad = await verify(['--stages', 'tlc,nope']);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toMatch(/unknown stage 'nope'/);
    expect((await verify(['--runs', '0'])).code).toBe(64);
    expect((await verify(['--stages', 'tlc', '--skip', 'tlc'])).code).toBe(64);
  });
});
