/**
 * `fencecheck tlc --system` (src/seam/tlc/): the systems' TLC runs read from committed
 * real TLC output (fixtures/replication-*.out, replication-base.dump, pause-P5.out; captures.json),
 * judged and recorded exactly as the command does, and compared with the committed evidence
 * (evidence/tlc/<system>/). Offline; the live runs at the end need a jar and are skipped, saying why,
 * without one.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadManifest, mutantsFor, type MutantEntry } from '../../src/core/manifest.js';
import { projectRoot } from '../../src/core/project-root.js';
import { baseSystemEvidence, evidenceMutantResults, mutantSystemEvidence, readBaseGraph, readSystemEvidence } from '../../src/seam/evidence.js';
import type { StateGraph } from '../../src/seam/tlc/graph.js';
import { SYSTEMS, type AnySystem } from '../../src/registry/systems.js';
import { reconcileExit } from '../../src/tlc/exit-status.js';
import { locateTlc } from '../../src/tlc/locate.js';
import { judgeMutant } from '../../src/seam/tlc/mutant-judge.js';
import type { TlcRun } from '../../src/tlc/run.js';
import { entryVariants } from '../../src/seam/tlc/system-check.js';
import { systemEvidenceDifferences, systemFreshness } from '../../src/seam/tlc/system-compare.js';
import { toTlaTrace } from '../../src/tlc/to-itf.js';
import { parseToolOutput } from '../../src/tlc/tool-output.js';
import { fixturePath, readCaptureIndex } from './captures.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';

const index = readCaptureIndex();

/** A committed capture as the runner's TlcRun (what runTlc returns for it). */
function capturedRun(name: string, withDump = false): Extract<TlcRun, { kind: 'completed' }> {
  const raw = readFileSync(fixturePath(`${name}.out`), 'utf8');
  const rec = index.captures.find((c) => c.name === name)!;
  return {
    kind: 'completed',
    result: reconcileExit(parseToolOutput(raw), rec.tlcExit),
    exitCode: rec.tlcExit,
    wallMs: 0,
    raw,
    ...(withDump && { dumpText: readFileSync(fixturePath(`${name}.dump`), 'utf8') }),
  };
}

const manifest = loadManifest();
const entry = (id: string): MutantEntry => manifest.mutants.find((m) => m.id === id)!;
let failover: AnySystem;
let pause: AnySystem;
let tmp: string;

/** A copy of the parts readSystemEvidence reads (specs, configs, evidence), to break on purpose. */
function copyRoot(name: string): string {
  const root = join(tmp, name);
  for (const part of ['tla/fencing/failover', 'tla/pause', 'evidence/tlc/failover', 'evidence/tlc/pause']) {
    mkdirSync(dirname(join(root, part)), { recursive: true });
    cpSync(join(projectRoot, part), join(root, part), { recursive: true });
  }
  return root;
}

beforeAll(async () => {
  failover = await SYSTEMS.failover!();
  pause = await SYSTEMS.pause!();
  tmp = ownedTempDir('system-tlc');
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the seam systems in the manifest, at the tla layer', () => {
  it('pause has P1–P6, P13 and P14 and replication R1, each with its tla config; R1-Inv_SingleAuthority is a variant of R1', () => {
    expect(mutantsFor(manifest, 'tla', 'pause').map((m) => m.id)).toEqual(['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P13', 'P14']);
    expect(mutantsFor(manifest, 'tla', 'failover').map((m) => [m.id, m.layers.tla?.config])).toEqual([['R1', 'tla/fencing/failover/mutants/R1.cfg']]);
    expect(entryVariants(entry('R1')).map((v) => [v.id, v.expectedInvariant, v.target, v.layers.tla?.config])).toEqual([
      ['R1-Inv_SingleAuthority', 'Inv_SingleAuthority', 'Acquire_WaitReplica', 'tla/fencing/failover/mutants/R1-Inv_SingleAuthority.cfg'],
    ]);
    expect(entryVariants(entry('P1'))).toEqual([]);
  });
});

/** The committed state graph of a system (its states and edges, checked against their hashes). */
function committedGraph(system: string): StateGraph {
  const g = readBaseGraph(system);
  if ('reason' in g) throw new Error(g.reason);
  return g.graph;
}

describe('the failover base run (fixtures/replication-base.out)', () => {
  it('records what base.json records: outcome, counts, the states and the state graph', () => {
    const { evidence } = baseSystemEvidence(failover, capturedRun('replication-base'), committedGraph('failover'));
    const committed = readSystemEvidence('failover', 'base');
    expect(committed.freshness).toEqual({ fresh: true });
    expect(evidence).toMatchObject({ outcome: 'ok', generated: 2206, distinct: 742, depth: 15, system: 'failover', run: 'base' });
    for (const k of ['outcome', 'generated', 'distinct', 'depth', 'specSha256', 'configSha256', 'invariants', 'bounds', 'states', 'edges'] as const)
      expect(evidence[k], k).toEqual(committed.evidence![k]);
    expect(Object.keys(evidence).slice(0, 3)).toEqual(['schema', 'system', 'run']);
  });

  it('is "fresh" against evidence/tlc/failover/, and "differs" when the committed counts, states or edges do', () => {
    const graph = committedGraph('failover');
    const { evidence } = baseSystemEvidence(failover, capturedRun('replication-base'), graph);
    const live = { system: 'failover', base: evidence, graph, mutants: [] };
    expect(systemFreshness(live)).toMatchObject({ fresh: true, differences: [] });

    const root = copyRoot('counts');
    const base = join(root, 'evidence/tlc/failover/base.json');
    writeFileSync(base, JSON.stringify({ ...JSON.parse(readFileSync(base, 'utf8')), generated: 2205 }));
    expect(systemEvidenceDifferences(live, root)).toContain('base generated: evidence 2205, live 2206');

    // One state and one edge missing from the live graph: the comparison names each.
    const fewer = { ...graph, states: graph.states.slice(1), edges: graph.edges.slice(1) };
    const d = systemEvidenceDifferences({ ...live, graph: fewer });
    expect(d).toEqual([`base state set differs: 0 only live (-), 1 only committed (${graph.states[0]})`, `base edges differ: 0 only live (-), 1 only committed (${graph.edges[0]})`]);
  });

  it('a violated base records its outcome and counts, never a partial state list', () => {
    const { evidence } = baseSystemEvidence(failover, capturedRun('replication-R1'), undefined);
    expect(evidence.states).toBeUndefined();
    expect(evidence.edges).toBeUndefined();
    expect(evidence.outcome).toBe('invariant-violation');
  });
});

describe('mutant runs from committed TLC output', () => {
  const cases = [
    { capture: 'replication-R1', system: () => failover, m: () => entry('R1'), violated: 'Inv_Monotonic', trace: ['Init', 'Acquire', 'Failover', 'Acquire'] },
    {
      capture: 'replication-R1-Inv_SingleAuthority',
      system: () => failover,
      m: () => entryVariants(entry('R1'))[0]!,
      violated: 'Inv_SingleAuthority',
      trace: ['Init', 'Acquire', 'Failover', 'Acquire'],
    },
    { capture: 'pause-P5', system: () => pause, m: () => entry('P5'), violated: 'Inv_ReadyAfterSnapshot', trace: ['Init', 'Ready'] },
  ];
  for (const c of cases) {
    it(`${c.capture}: killed by ${c.violated}, recorded as the committed evidence records it`, async () => {
      const run = capturedRun(c.capture);
      const m = c.m();
      expect(await judgeMutant(run, m)).toEqual({ verdict: 'killed' });
      const r = run.result;
      const ev = mutantSystemEvidence(c.system(), m, m.layers.tla!.config!, run, { verdict: 'killed', violated: r.violated!, traceLength: r.trace.length });
      expect(ev).toMatchObject({ violated: c.violated, traceLength: c.trace.length, mutant: { id: m.id, target: m.target, expectedInvariant: c.violated } });
      const live = { system: c.system().name, base: readSystemEvidence(c.system().name, 'base').evidence!, mutants: [ev] };
      expect(systemEvidenceDifferences(live)).toEqual([]);
      expect(toTlaTrace(run.result)?.steps.map((s) => s.action)).toEqual(c.trace);
    });
  }

  it('another invariant than the expected one is wrong-invariant, never killed', async () => {
    expect(await judgeMutant(capturedRun('replication-R1'), { ...entry('R1'), expectedInvariant: 'Inv_SingleAuthority' })).toEqual({
      verdict: 'wrong-invariant',
      reason: 'TLC reported Inv_Monotonic, expected Inv_SingleAuthority',
    });
  });

  it("a survivor with the base's exact state set is equivalent; one state less and it survived", async () => {
    const states = committedGraph('failover').states;
    const run = capturedRun('replication-base');
    const same = await judgeMutant(run, entry('R1'), { base: states, states: async () => states });
    expect(same.verdict).toBe('equivalent');
    const fewer = await judgeMutant(run, entry('R1'), { base: states, states: async () => states.slice(1) });
    expect(fewer).toEqual({ verdict: 'survived', reason: 'no invariant violated (742 distinct states)' });
  });

  it('a mutant record whose trace length differs from the committed one "differs"', () => {
    const run = capturedRun('replication-R1');
    const ev = { ...mutantSystemEvidence(failover, entry('R1'), 'tla/fencing/failover/mutants/R1.cfg', run, { verdict: 'killed', violated: 'Inv_Monotonic', traceLength: 4 }), traceLength: 5 };
    const live = { system: 'failover', base: readSystemEvidence('failover', 'base').evidence!, mutants: [ev] };
    expect(systemEvidenceDifferences(live)).toEqual(['R1 traceLength: evidence 4, live 5']);
  });
});

describe('the committed evidence as tla-layer verdicts (no Java)', () => {
  it('P1–P6, P13, P14 and R1 are killed by their expected invariants, with the recorded trace lengths', () => {
    const entries = [...mutantsFor(manifest, 'tla', 'pause'), ...mutantsFor(manifest, 'tla', 'failover')];
    expect(evidenceMutantResults(entries).map((r) => [r.id, r.verdict, r.traceLength])).toEqual([
      ['P1', 'killed', 9],
      ['P2', 'killed', 5],
      ['P3', 'killed', 9],
      ['P4', 'killed', 5],
      ['P5', 'killed', 2],
      ['P6', 'killed', 9],
      ['P13', 'killed', 6],
      ['P14', 'killed', 6],
      ['R1', 'killed', 4],
    ]);
  });

  it('another recorded invariant is wrong-invariant; a changed config is not-run (stale), never killed', () => {
    const root = copyRoot('verdicts');
    const rec = join(root, 'evidence/tlc/failover/R1.json');
    writeFileSync(rec, JSON.stringify({ ...JSON.parse(readFileSync(rec, 'utf8')), violated: 'Inv_SingleAuthority' }));
    expect(evidenceMutantResults([entry('R1')], root)[0]).toMatchObject({ verdict: 'wrong-invariant', reason: 'TLC reported Inv_SingleAuthority, expected Inv_Monotonic' });
    writeFileSync(join(root, 'tla/pause/mutants/P5.cfg'), `${readFileSync(join(root, 'tla/pause/mutants/P5.cfg'), 'utf8')}\n`);
    expect(evidenceMutantResults([entry('P5')], root)[0]).toMatchObject({ verdict: 'not-run', reason: expect.stringMatching(/^tla\/pause\/mutants\/P5.cfg changed since TLC ran \(stale evidence\)/) });
  });
});

const located = locateTlc();
const why = located.ok ? '' : ` — SKIPPED: ${located.reason}`;

describe(`fencecheck tlc --system with real TLC${why}`, () => {
  it.skipIf(!located.ok)(
    `failover --mutants --json: 742 distinct, R1 and its variant killed, evidence fresh${why}`,
    () => {
      const r = spawnSync(process.execPath, [join(projectRoot, 'bin/fencecheck.mjs'), 'tlc', '--system', 'failover', '--mutants', '--json'], { cwd: projectRoot, encoding: 'utf8', timeout: 120_000 });
      expect(r.status, r.stderr).toBe(0);
      const report = JSON.parse(r.stdout) as {
        status: string;
        counts: Record<string, number>;
        mutants: { id: string; verdict: string }[];
        details: { evidence: string; variants: { id: string; verdict: string }[] };
      };
      expect(report).toMatchObject({ status: 'passed', counts: { generated: 2206, distinct: 742, depth: 15, killed: 1, mutants: 1, variantsKilled: 1 } });
      expect(report.mutants.map((m) => [m.id, m.verdict])).toEqual([['R1', 'killed']]);
      expect(report.details.variants.map((m) => [m.id, m.verdict])).toEqual([['R1-Inv_SingleAuthority', 'killed']]);
      expect(report.details.evidence).toBe('fresh');
    },
    150_000,
  );

  it.skipIf(!located.ok)(
    `--system all --json: one live TLC block per model, pinned to the committed evidence's hashes${why}`,
    () => {
      const r = spawnSync(process.execPath, [join(projectRoot, 'bin/fencecheck.mjs'), 'tlc', '--system', 'all', '--json'], { cwd: projectRoot, encoding: 'utf8', timeout: 240_000 });
      expect(r.status, r.stderr).toBe(0);
      const report = JSON.parse(r.stdout) as {
        details: { tlcModels: { model: string; from: string; spec: string; specSha256: string; configSha256: string; distinct: number; command: string; dumps?: { states?: { sha256: string } } }[] };
      };
      const committed = (system: string) =>
        JSON.parse(readFileSync(join(projectRoot, 'evidence/tlc', system, 'base.json'), 'utf8')) as { specSha256: string; configSha256: string; distinct: number; states: { sha256: string } };
      expect(report.details.tlcModels.map((b) => [b.model, b.from, b.distinct])).toEqual([
        ['RedisClusterFencingMigration', 'live', 4117],
        ['FencingReplication', 'live', 742],
        ['PauseSnapshot', 'live', 15268],
        ['InitLimiter', 'live', 2455],
      ]);
      for (const [b, system] of report.details.tlcModels.map((x, i) => [x, ['fencing', 'failover', 'pause', 'init-limiter'][i]!] as const)) {
        const e = committed(system);
        expect({ model: b.model, spec: b.specSha256, config: b.configSha256, states: b.dumps?.states?.sha256 }).toEqual({
          model: b.model,
          spec: e.specSha256,
          config: e.configSha256,
          states: e.states.sha256,
        });
        expect(b.command).toMatch(/tlc2\.TLC .*-deadlock/);
      }
    },
    300_000,
  );

  it.skipIf(!located.ok)(
    `the tla mutant layer runs a seam system's entries through the same checks, with each system's own traces${why}`,
    async () => {
      const { runner } = await import('../../src/mutants/layers/tla.js');
      const traceDir = join(tmp, 'traces');
      const results = await runner.run([entry('R1'), entry('P5')], { traceDir });
      expect(results.map((r) => [r.id, r.verdict, r.violated, r.traceLength])).toEqual([
        ['R1', 'killed', 'Inv_Monotonic', 4],
        ['P5', 'killed', 'Inv_ReadyAfterSnapshot', 2],
      ]);
      const trace = JSON.parse(readFileSync(resolve(projectRoot, results[1]!.tracePath!), 'utf8')) as { system: string; spec: string; violated: string };
      expect(trace).toMatchObject({ schema: 'fencecheck.trace/2', system: 'pause', source: 'tlc', spec: 'tla/pause/PauseSnapshot.tla', mutant: 'P5', violated: 'Inv_ReadyAfterSnapshot' });
    },
    150_000,
  );
});
