import { appendFileSync, cpSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { canonicalKey, initialState } from '../../src/systems/fencing/state.js';
import { evidenceStatus, loadAllEvidence, readBaseStateDump } from '../../src/systems/fencing/tlc/evidence.js';
import { sha256File, SPEC_PATH } from '../../src/systems/fencing/tlc/config.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';

// Java-free: these tests only hash files and read JSON.
const temps: string[] = [];
afterEach(() => {
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

/** A copy of what the evidence check reads: tla/, evidence/, mutants/manifest.json. */
function copyTree(): string {
  const dir = ownedTempDir('evidence');
  temps.push(dir);
  for (const p of ['tla', 'evidence', 'mutants/manifest.json']) cpSync(join(projectRoot, p), join(dir, p), { recursive: true });
  return dir;
}

const STALE = /^stale TLC evidence: rerun `fencecheck tlc --mutants --write-evidence`/;

describe('committed TLC evidence', () => {
  it('is fresh and complete for the committed spec: base + every manifest mutant, each with verdict and trace', () => {
    expect(evidenceStatus()).toEqual({ ok: true });
    const { base, mutants } = loadAllEvidence();
    expect(base.specSha256).toBe(sha256File(join(projectRoot, SPEC_PATH)));
    expect(base.outcome).toBe('ok');
    expect(mutants.map((m) => m.run)).toEqual(['M1', 'M2', 'M3', 'M4', 'M5', 'M6', 'M7', 'M8', 'M9']);
    for (const m of mutants) {
      expect(m.verdict, m.run).toBe('killed');
      expect(m.violated, m.run).toBe(m.mutant!.expectedInvariant);
      expect(m.trace!.steps.length, m.run).toBe(m.traceLength);
      expect(m.trace!.brokenAtEnd, m.run).toContain(m.violated);
    }
  });

  it('reports a tampered spec as stale (a copy in a temp dir)', () => {
    const dir = copyTree();
    expect(evidenceStatus(dir)).toEqual({ ok: true });
    appendFileSync(join(dir, SPEC_PATH), '\n\\* an edit after the evidence was made\n');
    const s = evidenceStatus(dir);
    expect(s.ok).toBe(false);
    if (!s.ok) {
      expect(s.reason).toMatch(STALE);
      expect(s.reason).toMatch(/RedisClusterFencingMigration\.tla changed/);
    }
    expect(() => readBaseStateDump(dir)).toThrow(STALE);
  });

  it('reports a changed mutant config as stale, naming it', () => {
    const dir = copyTree();
    const cfg = join(dir, 'tla/fencing/mutants/M7.cfg');
    writeFileSync(cfg, readFileSync(cfg, 'utf8').replace('MaxGen = 4', 'MaxGen = 3'));
    const s = evidenceStatus(dir);
    expect(s).toEqual({ ok: false, reason: expect.stringMatching(/tla\/mutants\/M7\.cfg changed/) });
    if (!s.ok) expect(s.reason).toMatch(STALE);
  });

  it('reports missing mutant evidence and a tampered state dump', () => {
    const dir = copyTree();
    unlinkSync(join(dir, 'evidence/tlc/fencing/M3.json'));
    expect(evidenceStatus(dir)).toEqual({ ok: false, reason: expect.stringMatching(/^no TLC evidence \(evidence\/tlc\/M3\.json is missing\)/) });
    const dir2 = copyTree();
    appendFileSync(join(dir2, 'evidence/tlc/fencing/base.states.txt'), 'version=p1:C;bogus\n');
    expect(evidenceStatus(dir2)).toEqual({ ok: false, reason: expect.stringMatching(/base\.states\.txt does not match/) });
  });

  it('reports a killed verdict without its trace as incomplete', () => {
    const dir = copyTree();
    const p = join(dir, 'evidence/tlc/fencing/M5.json');
    const e = JSON.parse(readFileSync(p, 'utf8')) as Record<string, unknown>;
    delete e['trace'];
    writeFileSync(p, JSON.stringify(e));
    expect(evidenceStatus(dir)).toEqual({ ok: false, reason: expect.stringMatching(/M5\.json records a killed verdict without its trace/) });
  });

  it('serves the base state dump: sorted canonicalKey() lines, as many as TLC found distinct', () => {
    const d = readBaseStateDump();
    expect(d.states).toHaveLength(d.distinct);
    expect(d.distinct).toBe(4117);
    expect(d.generated).toBe(15637);
    expect(d.bounds).toEqual({ pods: ['p1', 'p2', 'p3'], maxGen: 4 });
    expect([...d.states].sort()).toEqual(d.states);
    expect(new Set(d.states).size).toBe(d.states.length);
    expect(d.states).toContain(canonicalKey(initialState()));
    expect(d.tlcVersion).toMatch(/^TLC2 Version /);
  });
});

describe('`fencecheck evidence` (no Java)', () => {
  it('passes on the committed evidence and prints a StageReport with the figures', async () => {
    const { spawnSync } = await import('node:child_process');
    const r = spawnSync(process.execPath, ['bin/fencecheck.mjs', 'evidence', '--json'], {
      cwd: projectRoot,
      encoding: 'utf8',
      env: { ...process.env, TLA2TOOLS_JAR: '', JAVA_HOME: '', PATH: '/nonexistent' },
    });
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { stage: string; status: string; counts: Record<string, number>; mutants: { verdict: string }[] };
    expect(report).toMatchObject({ stage: 'evidence', status: 'passed', counts: { distinct: 4117, generated: 15637, 'pause.distinct': 15268, 'replication.distinct': 742, mutants: 16, killed: 16 } });
    expect(report.mutants.every((m) => m.verdict === 'killed')).toBe(true);
  });
});
