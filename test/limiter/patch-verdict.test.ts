/**
 * A user's limiter patch judged by the limiter's ordinary impl checks together — its property runs
 * against the reference model and its invariant tests — through the one verdict function, by
 * `limiter --patch FILE` and by `mutants --patch FILE --system limiter` (no --expect): killed by the
 * named check, or survived; the unpatched limiter runs the same checks first. A patch whose bug only
 * an invariant test sees (the script taking one key as both buckets: the client refuses before
 * sending, so the property's calls never show it) is killed by that test; judged by the property
 * alone it would survive.
 */
import { describe, expect, it } from 'vitest';
import type { StageReport } from '../../src/core/stage-report.js';
import type { MutantResult } from '../../src/core/verdict.js';
import { runCli } from '../verify/run-cli.js';

const DUPLICATE = 'test/fixtures/patches/limiter/script-takes-duplicate-key.ts';
const REWORDED = 'test/fixtures/patches/limiter/comment-reworded.ts';
const limiter = (patch: string, json = false) => runCli(['limiter', '--patch', patch, '--topology', 'standalone', '--runs', '60', ...(json ? ['--json'] : [])]);
const mutants = (patch: string) => runCli(['mutants', '--patch', patch, '--system', 'limiter', '--runs', '60', '--json']);

describe('a limiter patch judged by its property runs and invariant tests together', () => {
  it('limiter --patch: a bug only an invariant test sees is killed by that test, exit 1', async () => {
    const r = await limiter(DUPLICATE, true);
    expect(r.code, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout) as StageReport<{ patch: { path: string; sha256: string; verdict: string; violated?: string } }>;
    expect(report.details!.patch).toMatchObject({ path: DUPLICATE, verdict: 'killed', violated: 'duplicate_key_refused' });
    expect(report.details!.patch.sha256).toMatch(/^[0-9a-f]{64}$/);
    // The property held: only the invariant test kills it.
    expect(report.summary).toMatch(/property held/);
    expect(r.stderr).toMatch(/^unpatched: every check held \(60 property cases and \d+ invariant tests on standalone\)$/m);
  });

  it('limiter --patch: a reworded comment survives, exit 0, never equivalent', async () => {
    const r = await limiter(REWORDED);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^survived: every check held on the patched limiter \(60 property cases and \d+ invariant tests on standalone\)/m);
  });

  it('limiter --patch: a mutant the property kills names the property check and its replay', async () => {
    const r = await limiter('mutants/limiter/impl/L1.ts');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^killed by limiter\.\S+: \[standalone\] /m);
    expect(r.stdout).toMatch(/^replay: fencecheck limiter --topology standalone --seed=-?\d+ --path=\S+ --patch mutants\/limiter\/impl\/L1\.ts$/m);
  });

  it('mutants --patch --system limiter, no --expect: the same verdicts (killed exit 0, survived exit 1)', async () => {
    const killed = await mutants(DUPLICATE);
    expect(killed.code, killed.stderr).toBe(0);
    const k = (JSON.parse(killed.stdout) as StageReport).mutants![0] as MutantResult;
    expect(k).toMatchObject({ verdict: 'killed', violated: 'duplicate_key_refused', expectedInvariant: 'any' });
    const survived = await mutants(REWORDED);
    expect(survived.code, survived.stderr).toBe(1);
    expect(((JSON.parse(survived.stdout) as StageReport).mutants![0] as MutantResult).verdict).toBe('survived');
  });
});
