/**
 * `fencecheck diff OLD.json NEW.json`: what changed between two verify runs, one line per change.
 * Documents are the fixture run (test/report/fixtures.ts) as writeVerifyReports writes it.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { changeLine, diffReports } from '../../src/report/diff.js';
import { readVerifyDocument } from '../../src/report/read-doc.js';
import type { MatrixRow, VerifyReport } from '../../src/report/verify-doc.js';
import { writeVerifyReports } from '../../src/report/write.js';
import { fixtureReport, fixtureRoot } from './fixtures.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';

/** The fixture run as written to verify.json, read back. */
function writtenDoc(): VerifyReport {
  const root = fixtureRoot();
  return readVerifyDocument(writeVerifyReports(fixtureReport(), join(root, 'reports'), root).json);
}

function withCell(r: VerifyReport, id: string, layer: 'tla' | 'model' | 'impl', edit: Partial<MatrixRow['cells']['model']>): VerifyReport {
  const rows = r.mutationMatrix.rows.map((row) => (row.id === id ? { ...row, cells: { ...row.cells, [layer]: { ...row.cells[layer], ...edit } } } : row));
  return { ...r, mutationMatrix: { ...r.mutationMatrix, rows } };
}

const lines = (a: VerifyReport, b: VerifyReport) => diffReports(a, b).map(changeLine);

describe('diffReports', () => {
  const base = writtenDoc();

  it('finds nothing between a run and itself, whatever the times and hosts', () => {
    const later = {
      ...base,
      startedAt: '2027-01-01T00:00:00.000Z',
      durationMs: 1,
      host: { ...base.host, cpus: 64 },
      stages: base.stages.map((s) => ({ ...s, durationMs: s.durationMs + 5, logPath: 'elsewhere.log' })),
    };
    expect(diffReports(base, later)).toEqual([]);
  });

  it('two runs that differ in one verdict: exactly that verdict is named', () => {
    expect(lines(base, withCell(base, 'M3', 'model', { verdict: 'killed', violated: 'Inv_Monotonic' }))).toEqual(['mutant M3 model: survived → killed']);
    expect(lines(base, withCell(base, 'M1', 'model', { verdict: 'survived' }))).toEqual(['mutant M1 model: killed → survived']);
  });

  it('a kill by another invariant, a stage status, a count, the verdict', () => {
    const b: VerifyReport = {
      ...withCell(base, 'M1', 'model', { violated: 'Inv_Monotonic' }),
      verdict: { ...base.verdict, status: 'passed', exitCode: 0 },
      stages: base.stages.map((s) => (s.stage === 'parity' ? { ...s, status: 'failed' as const, counts: { ...s.counts, machine: 3638 } } : s)),
    };
    expect(lines(base, b)).toEqual([
      'verdict: failed → passed',
      'verdict exit code: 1 → 0',
      'stage parity: passed → failed',
      'stage parity machine: 3637 → 3638',
      'mutant M1 model violated: Inv_SingleAuthority → Inv_Monotonic',
    ]);
  });

  it('hashes: spec, config and the dumps; TLC flags; a stage only one run selected', () => {
    const tlc = { ...base.tlc[0]!, configSha256: 'ee'.repeat(32), dumps: { states: { sha256: '11'.repeat(32) } }, flags: { deadlockChecking: false, flags: ['-deadlock'] } };
    const a: VerifyReport = { ...base, tlc: [{ ...tlc, specSha256: 'ab'.repeat(32) }] };
    const b: VerifyReport = {
      ...base,
      tlc: [
        { ...tlc, specSha256: 'cd'.repeat(32), dumps: { states: { sha256: '22'.repeat(32) } }, flags: { deadlockChecking: true, flags: [] } },
        { model: 'PauseSnapshot', from: 'evidence' },
      ],
      stages: base.stages.filter((s) => s.stage !== 'limiter'),
    };
    expect(lines(a, b)).toEqual([
      'stage limiter: passed → not selected',
      `tlc RedisClusterFencingMigration specSha256: ${'ab'.repeat(32)} → ${'cd'.repeat(32)}`,
      `tlc RedisClusterFencingMigration states dump sha256: ${'11'.repeat(32)} → ${'22'.repeat(32)}`,
      'tlc RedisClusterFencingMigration deadlock checking: off → on',
      'tlc PauseSnapshot figures from: none → evidence',
    ]);
  });

  it('reads a fencecheck.verify/1 document: its one TLC summary is the model its config names', () => {
    const dir = ownedTempDir('diff-v1');
    const { tlc, ...rest } = base;
    const v1 = join(dir, 'v1.json');
    writeFileSync(v1, JSON.stringify({ ...rest, schema: 'fencecheck.verify/1', tlc: tlc[0] }));
    const old = readVerifyDocument(v1);
    rmSync(dir, { recursive: true, force: true });
    expect(old.schema).toBe('fencecheck.verify/2');
    expect(old.tlc.map((t) => t.model)).toEqual(['RedisClusterFencingMigration']);
    expect(diffReports(old, base)).toEqual([]);
  });

  it('the stored mutation score, when both runs carry one', () => {
    const s = base.mutationMatrix.score!;
    const b = { ...base, mutationMatrix: { ...base.mutationMatrix, score: { ...s, overall: { ...s.overall, killed: s.overall.killed + 1, percent: 50 } } } };
    expect(lines(base, b)).toEqual([
      `mutation score overall: ${s.overall.percent!.toFixed(1)} % (${s.overall.killed}/${s.overall.total - s.overall.equivalent}, ${s.overall.notRun} not run) → 50.0 % (${s.overall.killed + 1}/${s.overall.total - s.overall.equivalent}, ${s.overall.notRun} not run)`,
    ]);
  });
});

describe('fencecheck diff (CLI)', () => {
  const dir = ownedTempDir('diff');
  const base = writtenDoc();
  const write = (name: string, content: unknown) => {
    const p = join(dir, name);
    writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
    return p;
  };
  const oldPath = write('old.json', base);
  const newPath = write('new.json', withCell(base, 'M3', 'model', { verdict: 'killed' }));
  const run = (...argv: string[]) => {
    const r = spawnSync(process.execPath, [join(projectRoot, 'bin/fencecheck.mjs'), 'diff', ...argv], { encoding: 'utf8', timeout: 30_000 });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  it('prints each change on its own line and exits 1; identical runs exit 0', () => {
    expect(run(oldPath, newPath)).toEqual({ code: 1, stdout: 'mutant M3 model: survived → killed\n', stderr: '' });
    expect(run(oldPath, oldPath)).toEqual({ code: 0, stdout: 'no differences\n', stderr: '' });
  });

  it('--json: a StageReport with the changes', () => {
    const r = run(oldPath, newPath, '--json');
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as {
      schema: string;
      stage: string;
      status: string;
      counts: Record<string, number>;
      details: { changes: { subject: string; old: string; new: string; line: string }[] };
    };
    expect(report).toMatchObject({ schema: 'fencecheck.stage/1', stage: 'diff', status: 'failed', counts: { changes: 1, mutant: 1 } });
    expect(report.details.changes).toEqual([{ kind: 'mutant', subject: 'mutant M3 model', old: 'survived', new: 'killed', line: 'mutant M3 model: survived → killed' }]);
  });

  it('a malformed or wrong-schema file is one line and exit 3; wrong usage is 64', () => {
    const cases: [string, RegExp][] = [
      [write('schema.json', { ...base, schema: 'fencecheck.verify/3' }), /^fencecheck diff: .*schema\.json: not a fencecheck\.verify\/2 document \(schema "fencecheck\.verify\/3"\)\n$/],
      [write('broken.json', '{"schema": "fencecheck.verify/2",'), /^fencecheck diff: .*broken\.json: not JSON: .*\n$/],
      [
        write('stage-report.json', JSON.parse(readFileSync(join(projectRoot, 'test/report/fixtures/conform-pass.json'), 'utf8'))),
        /^fencecheck diff: .*stage-report\.json: not a fencecheck\.verify\/2 document \(schema "fencecheck\.stage\/1"\)\n$/,
      ],
      [write('no-matrix.json', { ...base, mutationMatrix: null }), /^fencecheck diff: .*no-matrix\.json: "mutationMatrix" must have "layers" and "rows" arrays\n$/],
      [join(dir, 'missing.json'), /^fencecheck diff: .*missing\.json: cannot read: ENOENT.*\n$/],
      [dir, /^fencecheck diff: .*: not a regular file\n$/],
    ];
    for (const [file, line] of cases) {
      const r = run(oldPath, file);
      expect({ file, code: r.code, stdout: r.stdout }).toEqual({ file, code: 3, stdout: '' });
      expect(r.stderr).toMatch(line);
    }
    expect(run(oldPath).code).toBe(64);
    expect(run(oldPath).stderr).toMatch(/^fencecheck diff: takes two files, OLD\.json and NEW\.json; got 1 \(see 'fencecheck diff --help'\)\n$/);
    expect(run(oldPath, newPath, '--color').code).toBe(64);
  });
});
