/**
 * One tour per verify: the conform stage is served by the impl layer's run (its unpatched tour) when
 * both are selected at the spec's bounds — verify does not start conform, and shows the report the
 * serving stage wrote as conform's; none written is not run, never a pass. And `--shard i/n`: the
 * shardable stages get `--shard i/n`, the others run in one part. Real child processes
 * (test/verify/fixtures/fake-stage.mjs).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProgressSink } from '../../src/verify/progress.js';
import { runVerify, type VerifyRunOptions } from '../../src/verify/run.js';
import { STAGES, type Stage } from '../../src/verify/stages.js';
import { fakeCommand, fakeStage } from './fake-stages.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';
import { loadManifest, mutantsFor } from '../../src/core/manifest.js';
import { inMutantShard } from '../../src/mutants/shard.js';

const quiet: ProgressSink = { planned() {}, started() {}, line() {}, finished() {}, close() {} };
const spec = (name: string, argv: string[], shardable = false): Stage =>
  fakeStage(name, argv, { takes: ['constants'], ...(shardable ? { shardable } : {}), ...(name === 'mutants:impl' ? { serves: 'conform' } : {}) });

async function run(catalogue: Stage[], extra: Partial<VerifyRunOptions> = {}) {
  return runVerify({
    stages: catalogue.map((s) => s.name),
    stageOptions: {},
    allowNotRun: [],
    jobs: 2,
    stageTimeoutMs: 30_000,
    outDir: ownedTempDir('verify-served'),
    progress: quiet,
    catalogue,
    command: fakeCommand,
    ...extra,
  });
}

describe('the conform stage served by the impl layer', () => {
  it('is not started: the report the impl layer wrote is its outcome', async () => {
    // If conform ran, it would fail.
    const r = await run([spec('mutants:impl', ['serve', 'passed']), spec('conform', ['fail'])]);
    const conform = r.stages.find((s) => s.stage === 'conform')!;
    expect(conform.status).toBe('passed');
    expect(conform.summary).toBe('served conform passed');
    expect(conform.counts).toEqual({ states: 3 });
    expect(r.options.served).toEqual({ conform: 'mutants:impl' });
    expect(r.stages.find((s) => s.stage === 'mutants:impl')!.command).toContain('--serve-report');
    // (The fake impl stage reports no mutants: the matrix's cells fail verify, conform does not.)
    expect(r.verdict.reasons.join('\n')).not.toMatch(/conform/);
  });

  it('a failed served tour fails verify; none written is not run, never a pass', async () => {
    const failed = await run([spec('mutants:impl', ['serve', 'failed']), spec('conform', ['pass'])]);
    expect(failed.stages.find((s) => s.stage === 'conform')!.status).toBe('failed');
    expect(failed.verdict.reasons.join('\n')).toMatch(/stage conform failed/);
    const none = await run([spec('mutants:impl', ['serve', 'none']), spec('conform', ['pass'])]);
    const conform = none.stages.find((s) => s.stage === 'conform')!;
    expect(conform.status).toBe('not-run');
    expect(conform.reason).toMatch(/mutants:impl wrote no conform report/);
    expect(none.verdict.reasons.join('\n')).toMatch(/stage conform not run/);
  });

  it('with --const conform runs itself (the impl layer keeps the spec bounds)', async () => {
    const r = await run([spec('mutants:impl', ['serve', 'passed']), spec('conform', ['fail'])], { stageOptions: { constants: ['Pods=1'] } });
    expect(r.stages.find((s) => s.stage === 'conform')!.status).toBe('failed');
    expect(r.options.served).toBeUndefined();
  });
});

describe('verify --shard i/n', () => {
  it('gives the shardable stages --shard i/n and each other stage to one part', async () => {
    const catalogue = [spec('a', ['echo-argv'], true), spec('b', ['echo-argv']), spec('c', ['echo-argv'])];
    const parts = await Promise.all([1, 2].map((index) => run(catalogue, { shard: { index, count: 2 } })));
    for (const [i, p] of parts.entries()) {
      expect(p.options.shard).toEqual({ index: i + 1, count: 2 });
      expect(p.options.sharded).toEqual(['a']);
      expect((p.stages.find((s) => s.stage === 'a')!.report!.details as { argv: string[] }).argv).toEqual(expect.arrayContaining(['--shard', `${i + 1}/2`]));
    }
    expect(parts[0]!.stages.map((s) => s.stage)).toEqual(['a', 'b']);
    expect(parts[1]!.stages.map((s) => s.stage)).toEqual(['a', 'c']);
    expect(parts[1]!.options.otherShards).toEqual(['b']);
    expect((parts[0]!.stages.find((s) => s.stage === 'b')!.report!.details as { argv: string[] }).argv).not.toContain('--shard');
  });
});

describe("a stage's CPU", () => {
  it('is recorded from the line the stage prints at its exit, which stays out of its log', async () => {
    const outDir = ownedTempDir('verify-cpu');
    const r = await runVerify({
      stages: ['lua-check'],
      stageOptions: {},
      allowNotRun: [],
      jobs: 1,
      stageTimeoutMs: 60_000,
      outDir,
      progress: quiet,
      catalogue: STAGES.filter((s) => s.name === 'lua-check'),
    });
    const o = r.stages[0]!;
    expect(o.status).toBe('passed');
    // Node's start alone takes tens of milliseconds of CPU.
    expect(o.cpu!.userMs + o.cpu!.systemMs).toBeGreaterThan(0);
    expect(readFileSync(join(outDir, 'stages', 'lua-check.log'), 'utf8')).not.toMatch(/fencecheck-stage-cpu/);
  }, 120_000);
});

describe("a part's mutation matrix", () => {
  it("marks the other parts' mutants not selected, so a part judges its own share", async () => {
    const manifest = loadManifest();
    const mine = mutantsFor(manifest, 'impl').filter((m) => inMutantShard(m, manifest, 'impl', { index: 1, count: 2 }));
    const impl = fakeStage('mutants:impl', ['results', 'impl', '0', ...mine.map((m) => `${m.id}=killed`)], { layer: 'impl', shardable: true });
    const r = await run([impl], { shard: { index: 1, count: 2 } });
    expect(r.verdict.reasons).toEqual([]);
    const other = r.mutationMatrix.rows.find((row) => row.id === 'M2')!.cells.impl;
    expect(other).toMatchObject({ verdict: 'not-selected', reason: expect.stringMatching(/run in part 2\/2/) });
    expect(r.mutationMatrix.rows.find((row) => row.id === 'M1')!.cells.impl.verdict).toBe('killed');
    // Unsharded, the same results leave half the layer missing.
    const whole = await run([impl]);
    expect(whole.verdict.reasons.join('\n')).toMatch(/mutant M2 at layer impl: missing/);
  });
});
