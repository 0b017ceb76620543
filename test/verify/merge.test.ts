/**
 * `verify --shard i/n` and `fencecheck merge`. On real Valkey at small bounds
 * (the tour at Pods=1 MaxGen=1, lua-check beside it): the merge of the 4 shards' verify.json has the
 * unsharded run's verdict, conform counts and digest; every stage is in exactly one part or in all
 * of them; a missing or a duplicated part is exit 3, never a pass. Then the merge rules on
 * hand-made parts: each refusal, and a mutant layer merged from its parts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownedTempDir, removeTempDir } from '../../src/core/temp-dir.js';
import { MergeError, mergeVerifyReports } from '../../src/verify/merge.js';
import { planVerify, shardRefusal } from '../../src/verify/plan.js';
import { STAGES } from '../../src/verify/stages.js';
import type { StageOutcome, VerifyReport } from '../../src/report/verify-doc.js';
import type { MutantResult } from '../../src/core/verdict.js';
import { runCli } from './run-cli.js';

const BOUNDS = ['--const', 'Pods=1', '--const', 'MaxGen=1'];
const STAGES_RUN = ['--stages', 'conform,lua-check'];

type Doc = VerifyReport;
const read = (dir: string): Doc => JSON.parse(readFileSync(join(dir, 'verify.json'), 'utf8')) as Doc;
const stage = (d: Doc, name: string) => d.stages.find((s) => s.stage === name);
const digestOf = (o: StageOutcome | undefined) => (o?.report?.details as { digest?: string } | undefined)?.digest;

describe('verify --shard i/4 and fencecheck merge, on real Valkey (Pods=1 MaxGen=1)', () => {
  let root: string;
  const dirs: string[] = [];
  let whole: Doc;
  const parts: Doc[] = [];

  beforeAll(async () => {
    root = ownedTempDir('merge-test');
    const run = async (out: string, extra: string[]) => {
      const r = await runCli(['verify', ...STAGES_RUN, ...BOUNDS, '--out', out, ...extra]);
      expect(r.code, r.stderr + r.stdout).toBe(0);
    };
    const wholeDir = join(root, 'whole');
    await run(wholeDir, []);
    whole = read(wholeDir);
    // Two at a time: each part starts its own Valkey topologies.
    for (const pair of [
      [1, 2],
      [3, 4],
    ]) {
      await Promise.all(pair.map((i) => run(join(root, `part${i}`), ['--shard', `${i}/4`])));
    }
    for (let i = 1; i <= 4; i++) {
      dirs.push(join(root, `part${i}`, 'verify.json'));
      parts.push(read(join(root, `part${i}`)));
    }
  }, 600_000);
  afterAll(() => root && removeTempDir(root));

  it('each part ran its part of conform and lua-check ran in exactly one part', () => {
    for (const [i, p] of parts.entries()) {
      expect(p.options.shard).toEqual({ index: i + 1, count: 4 });
      expect(p.options.sharded).toEqual(['conform']);
      expect((stage(p, 'conform')!.report!.details as { shard?: unknown }).shard).toEqual({ index: i + 1, count: 4 });
    }
    expect(parts.filter((p) => stage(p, 'lua-check') !== undefined)).toHaveLength(1);
    // A part's tour is a part: fewer states than the whole.
    expect(stage(parts[0]!, 'conform')!.counts!.states).toBeLessThan(stage(whole, 'conform')!.counts!.states!);
  });

  it('the merge has the unsharded verdict, conform counts and digest', async () => {
    const out = join(root, 'merged');
    const r = await runCli(['merge', ...dirs, '--out', out]);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    const merged = read(out);
    expect(merged.verdict).toEqual(whole.verdict);
    expect(merged.stages.map((s) => [s.stage, s.status])).toEqual(whole.stages.map((s) => [s.stage, s.status]));
    const { tourMs: _a, ...mergedCounts } = stage(merged, 'conform')!.counts!;
    const { tourMs: _b, ...wholeCounts } = stage(whole, 'conform')!.counts!;
    expect(mergedCounts).toEqual(wholeCounts);
    expect(digestOf(stage(merged, 'conform'))).toMatch(/^[0-9a-f]{64}$/);
    expect(digestOf(stage(merged, 'conform'))).toBe(digestOf(stage(whole, 'conform')));
    expect(merged.options.mergedShards).toBe(4);
  });

  it('a missing part or a part given twice is exit 3, never a pass', async () => {
    const out = join(root, 'refused');
    const missing = await runCli(['merge', ...dirs.slice(0, 3), '--out', out]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/shard 4\/4 missing/);
    const twice = await runCli(['merge', ...dirs.slice(0, 3), dirs[2]!, '--out', out]);
    expect(twice.code).toBe(3);
    expect(twice.stderr).toMatch(/shard 3\/4 given twice/);
  });
});

// ---- the merge rules on hand-made parts ----

const outcome = (name: string, fields: Partial<StageOutcome> = {}): StageOutcome => ({
  stage: name,
  command: [name],
  status: 'passed',
  allowedNotRun: false,
  exitCode: 0,
  signal: null,
  startedAt: '2026-12-02T00:00:00.000Z',
  durationMs: 1000,
  summary: `${name} held`,
  leftoverProcesses: 0,
  report: null,
  ...fields,
});

const mutantStage = (results: MutantResult[]): StageOutcome => {
  const killed = results.filter((r) => r.verdict === 'killed').length;
  return outcome('mutants:impl', {
    status: killed === results.length ? 'passed' : 'failed',
    report: {
      schema: 'fencecheck.stage/1',
      stage: 'mutants',
      status: killed === results.length ? 'passed' : 'failed',
      startedAt: '2026-12-02T00:00:00.000Z',
      durationMs: 1000,
      summary: 'x',
      mutants: results,
    },
  });
};
const killed = (id: string): MutantResult => ({ id, layer: 'impl', verdict: 'killed', expectedInvariant: 'Inv_SingleAuthority', violated: 'Inv_SingleAuthority' });

function doc(index: number, count: number, stages: StageOutcome[], sharded: string[] = [], commit = 'abc'): string {
  const d = {
    schema: 'fencecheck.verify/2',
    tool: { name: 'fencecheck', version: '0.1.0' },
    startedAt: '2026-12-02T00:00:00.000Z',
    finishedAt: '2026-12-02T00:01:00.000Z',
    durationMs: 60_000,
    host: { node: 'v20', platform: 'linux', arch: 'x64', cpus: 2 },
    git: { commit, dirty: false },
    options: { stages: stages.map((s) => s.stage), notSelected: [], allowNotRun: [], jobs: 2, stageTimeoutMs: 1, out: 'r', shard: { index, count }, sharded },
    verdict: { exitCode: 0, status: 'passed', reasons: [], waived: [] },
    stages,
    tlc: [],
    mutationMatrix: {},
    traces: [],
  };
  return JSON.stringify(d);
}
const merge = (...texts: string[]) => mergeVerifyReports({ reports: texts.map((text, i) => ({ where: `part${i + 1}.json`, text })), out: 'merged' });

describe('merge rules', () => {
  it('refuses a missing part, a duplicated part, parts of two splits or two commits', () => {
    const a = doc(1, 2, [outcome('lua-check')]);
    expect(() => merge(a)).toThrow(MergeError);
    expect(() => merge(a)).toThrow(/shard 2\/2 missing/);
    expect(() => merge(a, a)).toThrow(/shard 1\/2 given twice/);
    expect(() => merge(a, doc(2, 3, []))).toThrow(/different splits/);
    expect(() => merge(a, doc(2, 2, [], [], 'def'))).toThrow(/different commits/);
  });

  it('refuses a whole stage in two parts, and a sharded stage one part lacks', () => {
    expect(() => merge(doc(1, 2, [outcome('lua-check')]), doc(2, 2, [outcome('lua-check')]))).toThrow(/stage lua-check ran whole in more than one shard/);
    expect(() => merge(doc(1, 2, [mutantStage([killed('M1')])], ['mutants:impl']), doc(2, 2, [], ['mutants:impl']))).toThrow(/stage mutants:impl ran as parts, but shard 2\/2 has no part of it/);
  });

  it('merges a mutant layer from its parts; a mutant in two parts is refused', () => {
    const m = merge(doc(1, 2, [mutantStage([killed('M1'), killed('M3')])], ['mutants:impl']), doc(2, 2, [mutantStage([killed('M2')]), outcome('lua-check')], ['mutants:impl']));
    const impl = m.stages.find((s) => s.stage === 'mutants:impl')!;
    expect(impl.status).toBe('passed');
    expect(impl.counts).toMatchObject({ mutants: 3, killed: 3, notKilled: 0 });
    expect(impl.report?.mutants?.map((r) => r.id).sort()).toEqual(['M1', 'M2', 'M3']);
    expect(m.stages.map((s) => s.stage)).toEqual(['mutants:impl', 'lua-check']);
    expect(() => merge(doc(1, 2, [mutantStage([killed('M1')])], ['mutants:impl']), doc(2, 2, [mutantStage([killed('M1')])], ['mutants:impl']))).toThrow(/mutant M1 \[impl\] is in two parts/);
  });

  it('a part that failed makes the merged stage fail', () => {
    const survived: MutantResult = { id: 'M2', layer: 'impl', verdict: 'survived', expectedInvariant: 'Inv_Monotonic' };
    const m = merge(doc(1, 2, [mutantStage([killed('M1')])], ['mutants:impl']), doc(2, 2, [mutantStage([survived])], ['mutants:impl']));
    expect(m.stages[0]!.status).toBe('failed');
    expect(m.verdict.exitCode).toBe(1);
  });
});

describe('the plan of a shard', () => {
  const selected = STAGES.filter((s) => ['mutants:impl', 'props', 'conform', 'lua-check', 'evidence', 'explore'].includes(s.name));
  it('runs every shardable stage in every part and each other stage in exactly one', () => {
    const plans = [1, 2, 3, 4].map((index) => planVerify(selected, {}, { index, count: 4 }));
    for (const p of plans) expect(p.sharded).toEqual(['mutants:impl', 'props', 'conform']);
    for (const name of ['lua-check', 'evidence', 'explore']) expect(plans.filter((p) => p.stages.some((s) => s.name === name))).toHaveLength(1);
  });
  it('serves conform from the impl layer only at the spec bounds', () => {
    expect(planVerify(selected, {}).served.get('conform')?.by).toBe('mutants:impl');
    expect(planVerify(selected, { constants: ['Pods=1'] }).served.size).toBe(0);
    expect(
      planVerify(
        selected.filter((s) => s.name !== 'mutants:impl'),
        {},
      ).served.size,
    ).toBe(0);
  });
  it("refuses up front a shard of the tour stage without the impl layer, which alone splits every system's tour", () => {
    const half = { index: 1, count: 2 };
    const alone = selected.filter((s) => s.name !== 'mutants:impl');
    expect(shardRefusal(planVerify(alone, {}, half), {}, STAGES)).toMatch(/^--shard: the conform stage splits one system's work and \d+ systems have it .*run it with mutants:impl/);
    expect(shardRefusal(planVerify(selected, {}, half), {}, STAGES)).toBeUndefined();
    expect(shardRefusal(planVerify(alone, {}), {}, STAGES)).toBeUndefined();
    // With constants, conform takes the systems whose spec has them and judges the shard itself.
    const constants = { constants: ['Pods=1', 'MaxGen=1'] };
    expect(shardRefusal(planVerify(alone, constants, half), constants, STAGES)).toBeUndefined();
  });
});
