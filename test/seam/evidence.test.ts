// Every system's committed TLC evidence (src/seam/evidence.ts), Java-free: hashes, counts, the state
// list and the labelled state graph, and each way it can go stale.
import { appendFileSync, cpSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { mutantsFor } from '../../src/core/manifest.js';
import { evidenceMutantResults, readBaseGraph, readSystemEvidence } from '../../src/seam/evidence.js';
import { splitEdgeLine } from '../../src/seam/tlc/graph.js';
import { loadSystemManifest, MODEL_NAMES } from '../../src/registry/systems.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';

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

/** TLC's figures for every system (tla/<system>/README.md). */
const FIGURES: Readonly<Record<string, { distinct: number; generated: number; edges: number; selfLoops: number; labelled: boolean }>> = {
  fencing: { distinct: 4117, generated: 15637, edges: 15636, selfLoops: 1260, labelled: true },
  failover: { distinct: 742, generated: 2206, edges: 2025, selfLoops: 0, labelled: false },
  pause: { distinct: 15268, generated: 108901, edges: 84092, selfLoops: 4698, labelled: false },
  'init-limiter': { distinct: 2455, generated: 19746, edges: 19745, selfLoops: 2002, labelled: true },
};

describe('committed TLC evidence of every system', () => {
  it('covers every system with a model, each base fresh with its state list and its state graph', () => {
    expect([...MODEL_NAMES].sort()).toEqual(Object.keys(FIGURES).sort());
    for (const system of MODEL_NAMES) {
      const g = readBaseGraph(system);
      expect('reason' in g ? g.reason : 'fresh', system).toBe('fresh');
      if ('reason' in g) continue;
      const f = FIGURES[system]!;
      expect({ distinct: g.evidence.distinct, generated: g.evidence.generated, edges: g.graph.edges.length, selfLoops: g.graph.selfLoops, labelled: g.evidence.edges!.labelled }, system).toEqual(f);
      // Generated = initial states + every generated edge; every edge stays inside the state list.
      expect(g.evidence.generated).toBe(g.graph.initialStates + g.graph.generatedEdges);
      const states = new Set(g.graph.states);
      for (const e of g.graph.edges) expect(states.has(splitEdgeLine(e).from) && states.has(splitEdgeLine(e).to)).toBe(true);
      expect(g.evidence.tlcVersion).toMatch(/^TLC2 Version \S+ \(rev: [0-9a-f]+\)$/);
    }
  });

  it("records every tla-layer mutant of the manifest killed by its expected invariant, with TLC's trace", () => {
    const entries = MODEL_NAMES.flatMap((s) => mutantsFor(loadSystemManifest(), 'tla', s));
    expect(entries).toHaveLength(31);
    for (const r of evidenceMutantResults(entries)) expect({ id: r.id, verdict: r.verdict, violated: r.violated }).toEqual({ id: r.id, verdict: 'killed', violated: r.expectedInvariant });
    for (const m of entries) {
      const e = readSystemEvidence(m.system, m.id).evidence!;
      expect(e.invariants, m.id).toEqual(['TypeOK', m.expectedInvariant]);
      expect((e.trace as { steps: unknown[] }).steps, m.id).toHaveLength(e.traceLength!);
    }
  });

  it('reports a tampered spec as stale, naming it', () => {
    const dir = copyTree();
    appendFileSync(join(dir, 'tla/fencing/RedisClusterFencingMigration.tla'), '\n\\* an edit after the evidence was made\n');
    expect(readBaseGraph('fencing', dir)).toEqual({ reason: expect.stringMatching(/RedisClusterFencingMigration\.tla changed since TLC ran \(stale evidence\)/) });
    // The other systems' evidence does not depend on fencing's spec.
    expect('reason' in readBaseGraph('pause', dir)).toBe(false);
  });

  it('reports a changed mutant config as stale, and a mutant record made for another manifest entry as not run', () => {
    const dir = copyTree();
    const cfg = join(dir, 'tla/pause/mutants/P3.cfg');
    writeFileSync(cfg, readFileSync(cfg, 'utf8').replace('MaxCalls = 2', 'MaxCalls = 1'));
    const [p3] = evidenceMutantResults(
      mutantsFor(loadSystemManifest(), 'tla', 'pause').filter((m) => m.id === 'P3'),
      dir,
    );
    expect(p3).toMatchObject({ verdict: 'not-run', reason: expect.stringMatching(/tla\/pause\/mutants\/P3\.cfg changed/) });
    const entry = { ...mutantsFor(loadSystemManifest(), 'tla', 'fencing').find((m) => m.id === 'M5')!, target: 'Another_Guard' };
    expect(evidenceMutantResults([entry])[0]).toMatchObject({ verdict: 'not-run', reason: expect.stringMatching(/made for another manifest entry/) });
  });

  it('reports missing mutant evidence, a tampered state list and a tampered edge list', () => {
    const dir = copyTree();
    unlinkSync(join(dir, 'evidence/tlc/fencing/M3.json'));
    expect(readSystemEvidence('fencing', 'M3', dir).freshness).toEqual({ fresh: false, reason: 'no evidence evidence/tlc/fencing/M3.json' });
    appendFileSync(join(dir, 'evidence/tlc/fencing/base.states.txt'), 'version=p1:C;bogus\n');
    expect(readBaseGraph('fencing', dir)).toEqual({ reason: expect.stringMatching(/base\.states\.txt is missing or does not match its hash/) });
    const dir2 = copyTree();
    const edges = join(dir2, 'evidence/tlc/failover/base.edges.txt');
    writeFileSync(edges, readFileSync(edges, 'utf8').split('\n').slice(1).join('\n'));
    expect(readBaseGraph('failover', dir2)).toEqual({ reason: expect.stringMatching(/base\.edges\.txt is missing or does not match its hash/) });
  });
});

describe('`fencecheck evidence` (no Java)', () => {
  it("passes on the committed evidence and prints a StageReport with every system's figures", () => {
    const r = spawnSync(process.execPath, ['bin/fencecheck.mjs', 'evidence', '--json'], {
      cwd: projectRoot,
      encoding: 'utf8',
      env: { ...process.env, TLA2TOOLS_JAR: '', JAVA_HOME: '', PATH: '/nonexistent' },
    });
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { stage: string; status: string; counts: Record<string, number>; mutants: { verdict: string }[] };
    expect(report).toMatchObject({
      stage: 'evidence',
      status: 'passed',
      counts: { 'fencing.distinct': 4117, 'fencing.edges': 15636, 'pause.distinct': 15268, 'failover.distinct': 742, 'init-limiter.distinct': 2455, mutants: 31, killed: 31 },
    });
    expect(report.mutants.every((m) => m.verdict === 'killed')).toBe(true);
  });
});
