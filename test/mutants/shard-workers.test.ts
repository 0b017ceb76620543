/**
 * The impl layer in parts and on workers: each system's entries dealt
 * round-robin to the shards (every entry in exactly one, a shard of a shard keeps them all); the
 * entries grouped by system for the workers; and on real Valkey: `mutants --layer impl --shard 1/9
 * --conform-report F` runs part 1/9 of the unpatched tour, writes it as the conform stage's report,
 * and kills its mutant; two systems' entries on two workers are killed as on one process.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifest, mutantsFor } from '../../src/core/manifest.js';
import { ownedTempDir, removeTempDir } from '../../src/core/temp-dir.js';
import type { StageReport } from '../../src/core/stage-report.js';
import { inMutantShard } from '../../src/mutants/shard.js';
import { bySystem } from '../../src/mutants/workers.js';
import { runCli } from '../verify/run-cli.js';

const manifest = loadManifest();
const impl = mutantsFor(manifest, 'impl');

describe('a shard of the impl layer', () => {
  it("deals each system's entries round-robin: every entry in exactly one of n shards", () => {
    for (const n of [1, 2, 3, 4, 9]) {
      const parts = Array.from({ length: n }, (_, i) => impl.filter((m) => inMutantShard(m, manifest, 'impl', { index: i + 1, count: n })).map((m) => m.id));
      expect(parts.flat().sort()).toEqual(impl.map((m) => m.id).sort());
      // Each system's entries spread: no shard has two more of a system than another.
      for (const system of new Set(impl.map((m) => m.system))) {
        const per = parts.map((p) => p.filter((id) => impl.find((m) => m.id === id)!.system === system).length);
        expect(Math.max(...per) - Math.min(...per), `${system} over ${n}`).toBeLessThanOrEqual(1);
      }
    }
    expect(impl.filter((m) => inMutantShard(m, manifest, 'impl', { index: 1, count: 4 })).map((m) => m.id)).toEqual(expect.arrayContaining(['M1', 'M5', 'M9']));
  });

  it('groups entries by system for the workers, the largest group first', () => {
    const groups = bySystem(impl);
    expect(groups.map((g) => new Set(g.map((m) => m.system)).size)).toEqual(groups.map(() => 1));
    // The init limiter's twelve first, then fencing's nine: the longest group starts first.
    expect(groups.map((g) => g.length)).toEqual([...groups.map((g) => g.length)].sort((a, b) => b - a));
    expect(groups[0]!.every((m) => m.system === 'init-limiter')).toBe(true);
    expect(groups.flat().length).toBe(impl.length);
  });
});

describe('a part with no entries', () => {
  it('passes with no result (more shards than its systems have entries), not a usage error', async () => {
    // 30 parts, and no system has 30 entries (the init limiter's 24 are the most).
    const r = await runCli(['mutants', '--layer', 'impl', '--shard', '30/30', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as StageReport;
    expect(report.status).toBe('passed');
    expect(report.mutants).toEqual([]);
  });
});

describe('mutants --layer impl on real Valkey', () => {
  it('--shard 1/9 --conform-report: part 1/9 of the unpatched tour is the conform report; M1 killed', async () => {
    const dir = ownedTempDir('impl-shard-test');
    try {
      const file = join(dir, 'conform.json');
      const r = await runCli(['mutants', '--layer', 'impl', '--system', 'fencing', '--shard', '1/9', '--conform-report', file, '--json']);
      expect(r.code, r.stderr).toBe(0);
      const results = (JSON.parse(r.stdout) as StageReport).mutants!;
      expect(results.map((m) => [m.id, m.verdict])).toEqual([['M1', 'killed']]);
      expect(existsSync(file)).toBe(true);
      const conform = JSON.parse(readFileSync(file, 'utf8')) as StageReport<{ shard: unknown; digest: string | null; modelDigest: string }>;
      expect(conform.stage).toBe('conform');
      expect(conform.status).toBe('passed');
      expect(conform.details!.shard).toEqual({ index: 1, count: 9 });
      expect(conform.details!.digest).toBe(conform.details!.modelDigest);
      expect(conform.counts!.modelStates).toBeLessThan(4117);
    } finally {
      removeTempDir(dir);
    }
  }, 300_000);

  // verify's served conform stage: each worker writes its own system's tour, the parent joins them.
  // Seen red: each worker's report also carried the other tour systems as not run (a not-run stage,
  // counts prefixed twice).
  it('--conform-report on two workers: the fencing and pause tours in one report, each once, passed', async () => {
    const dir = ownedTempDir('impl-workers-conform');
    try {
      const file = join(dir, 'conform.json');
      const r = await runCli(['mutants', '--layer', 'impl', '--only', 'M1,P1', '--workers', '2', '--conform-report', file, '--json']);
      expect(r.code, r.stderr).toBe(0);
      const conform = JSON.parse(readFileSync(file, 'utf8')) as StageReport;
      expect(conform.status, conform.reason).toBe('passed');
      expect(conform.counts).toMatchObject({ 'fencing.states': 4117, 'pause.states': 696 });
      expect(Object.keys(conform.counts!).filter((k) => /^(\w+)\.\1\./.test(k))).toEqual([]);
    } finally {
      removeTempDir(dir);
    }
  }, 300_000);

  it('two systems on two workers: each killed as on one process', async () => {
    const two = await runCli(['mutants', '--layer', 'impl', '--only', 'L1,P5', '--workers', '2', '--json']);
    expect(two.code, two.stderr).toBe(0);
    const one = await runCli(['mutants', '--layer', 'impl', '--only', 'L1,P5', '--workers', '1', '--json']);
    expect(one.code, one.stderr).toBe(0);
    const verdicts = (out: string) => (JSON.parse(out) as StageReport).mutants!.map((m) => [m.id, m.verdict, m.violated]);
    expect(verdicts(two.stdout)).toEqual([
      ['L1', 'killed', 'limiter.transition_table'],
      ['P5', 'killed', 'Inv_ReadyAfterSnapshot'],
    ]);
    expect(verdicts(two.stdout)).toEqual(verdicts(one.stdout));
    // The workers' own lines reach the stage's log.
    expect(two.stderr).toMatch(/mutants:impl: .*workers/);
  }, 300_000);
});
