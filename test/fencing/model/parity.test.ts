import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../src/core/project-root.js';
import { sha256Text } from '../../../src/core/hash.js';
import { compareAlphabet, specActions } from '../../../src/seam/alphabet.js';
import { readBaseGraph } from '../../../src/seam/evidence.js';
import { exploreSystem } from '../../../src/seam/explore.js';
import type { AnySystem } from '../../../src/seam/package.js';
import { compareGraphs, compareStateSets } from '../../../src/seam/parity.js';
import { edgeLine, edgesToIndexedText, linesSha256, splitEdgeLine, twinGraph } from '../../../src/seam/tlc/graph.js';
import { fencingParityTables } from '../../../src/systems/fencing/parity-tables.js';
import { fencingSystem } from '../../../src/systems/fencing/system.js';
import { canonicalKey, DEFAULT_BOUNDS, type FencingState } from '../../../src/systems/fencing/state.js';
import { SPEC_PATH } from '../../../src/systems/fencing/tlc/config.js';
import { EFFECTS, EVENT_TYPES, type FencingOverrides } from '../../../models/fencing/index.js';
import redundantMigrateGuard from './fixtures/redundant-migrate-guard.js';
import { ownedTempDir } from '../../../src/core/temp-dir.js';

const committed = readBaseGraph('fencing');
const fresh = !('reason' in committed);
const isSelfLoop = (l: string) => splitEdgeLine(l).from === splitEdgeLine(l).to;

/** The parity of the twin (optionally with overrides) against the evidence under `root`, as `fencecheck parity` judges it. */
function parityAt(root = projectRoot, overrides?: FencingOverrides) {
  const sys = (overrides ? fencingSystem(DEFAULT_BOUNDS, overrides, 'test') : fencingSystem()) as unknown as AnySystem;
  const tlc = readBaseGraph('fencing', root);
  if ('reason' in tlc) return { status: 'not-run' as const, reason: tlc.reason };
  const p = compareGraphs(twinGraph(sys, exploreSystem(sys, { edges: true })), tlc.graph);
  return { status: p.equal ? ('passed' as const) : ('failed' as const), p };
}

describe('parity with the TLA+ spec', () => {
  it('compares state sets both ways and keeps the first differences sorted', () => {
    const c = compareStateSets(['a', 'b', 'd', 'c'], ['b', 'x', 'a'], 1);
    expect(c).toMatchObject({ equal: false, modelCount: 4, tlcCount: 3, onlyModelCount: 2, onlyTlcCount: 1, onlyModel: ['c'], onlyTlc: ['x'] });
    expect(compareStateSets(['a', 'b'], ['b', 'a']).equal).toBe(true);
  });

  it("finds every action of the spec's Next as one machine event, and no other", () => {
    const actions = specActions(readFileSync(join(projectRoot, SPEC_PATH), 'utf8'));
    expect([...actions].sort()).toEqual([...EVENT_TYPES].sort());
    expect(compareAlphabet(actions, EVENT_TYPES).equal).toBe(true);
    expect(compareAlphabet(['AcquireO', 'Teleport'], ['AcquireO', 'Enable'])).toMatchObject({ equal: false, onlySpec: ['Teleport'], onlyModel: ['Enable'] });
  });

  it('reads the operators Next calls, not its bound variables or sets', () => {
    const spec = "VARIABLE x\nInc(p) == x' = x + 1\nSkip == UNCHANGED x\nNext == \\E p \\in Pods : Inc(p) \\/ Skip\nSpec == Next\n";
    expect(specActions(spec)).toEqual(['Inc', 'Skip']);
    expect(() => specActions('VARIABLE x\n', 'x.tla')).toThrow(/x.tla: no Next/);
  });

  it('lays every action beside its event and implementation, every invariant beside its checks', async () => {
    const [actions, invariants, guards] = await fencingParityTables();
    expect(actions!.rows.map((r) => r[0]!.replace('(p)', ''))).toEqual([...EVENT_TYPES]);
    expect(actions!.rows.find((r) => r[0] === 'AcquireB(p)')?.[2]).toContain('AcquireB_OldLeaseFree');
    expect(invariants!.rows.every((r) => !r[1]!.includes('not in spec'))).toBe(true);
    expect(guards!.rows.find((r) => r[0] === 'AdvanceToC_Gate')?.[1]).toBe('named definition');
  });

  it.skipIf(!fresh)("reaches exactly TLC's states and takes exactly the labelled edges of its state graph, self-loops included", () => {
    const r = parityAt();
    expect(r.status).toBe('passed');
    if (r.status !== 'passed') return;
    expect(r.p.states).toMatchObject({ equal: true, modelCount: 4117, tlcCount: 4117, onlyModel: [], onlyTlc: [] });
    expect(r.p.edges).toMatchObject({ equal: true, modelCount: 15636, tlcCount: 15636 });
    expect(r.p.selfLoops).toEqual({ model: 1260, tlc: 1260 });
    // Each transition is one edge: the twin's generated (initial states + transitions) against TLC's own.
    expect(r.p.generated).toEqual({ model: 15637, tlc: 15637, equal: true });
    if (!('reason' in committed)) expect(linesSha256(committed.graph.edges)).toBe(committed.evidence.edges!.canonicalSha256);
  });

  it.skipIf(!fresh)('`fencecheck parity --json` reports the edge figures in its StageReport', () => {
    const r = spawnSync(process.execPath, ['bin/fencecheck.mjs', 'parity', '--system', 'fencing', '--json'], { cwd: projectRoot, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { status: string; summary: string; counts: Record<string, number> };
    expect(report.status).toBe('passed');
    expect(report.counts).toMatchObject({
      machineDistinct: 4117,
      tlcDistinct: 4117,
      machineEdges: 15636,
      tlcEdges: 15636,
      machineSelfLoops: 1260,
      tlcSelfLoops: 1260,
      onlyMachineEdges: 0,
      onlyTlcEdges: 0,
    });
    expect(report.summary).toMatch(/takes its 15636 edges \(1260 self-loops\); every spec action is one event/);
  });
});

describe('parity outcomes on a scratch checkout', () => {
  const scratch = (): string => {
    const root = ownedTempDir('parity');
    for (const f of [SPEC_PATH, 'tla/fencing/RedisClusterFencingMigration.cfg']) {
      mkdirSync(dirname(join(root, f)), { recursive: true });
      copyFileSync(join(projectRoot, f), join(root, f));
    }
    return root;
  };

  it('is not run, never passed, when the TLC evidence is missing', () => {
    const root = scratch();
    try {
      const r = parityAt(root);
      expect(r.status).toBe('not-run');
      expect(r).toMatchObject({ reason: expect.stringMatching(/^no evidence evidence\/tlc\/fencing\/base.json/) });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  /** Writes self-consistent evidence (hashes, counts) for a forged TLC state and edge set into `root`. */
  const forgeEvidence = (root: string, states: readonly string[], edges: readonly string[]) => {
    mkdirSync(join(root, 'evidence/tlc/fencing'), { recursive: true });
    const sorted = [...states].sort();
    const statesText = `${sorted.join('\n')}\n`;
    const e = [...edges].sort();
    const edgesText = edgesToIndexedText(e, sorted);
    writeFileSync(join(root, 'evidence/tlc/fencing/base.states.txt'), statesText);
    writeFileSync(join(root, 'evidence/tlc/fencing/base.edges.txt'), edgesText);
    const meta = JSON.parse(readFileSync(join(projectRoot, 'evidence/tlc/fencing/base.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    writeFileSync(
      join(root, 'evidence/tlc/fencing/base.json'),
      JSON.stringify({
        ...meta,
        distinct: sorted.length,
        generated: 1 + e.length,
        states: { ...meta.states, sha256: sha256Text(statesText), count: sorted.length },
        edges: { ...meta.edges, sha256: sha256Text(edgesText), count: e.length, generatedEdges: e.length, selfLoops: e.filter(isSelfLoop).length, canonicalSha256: linesSha256(e) },
      }),
    );
  };

  it.skipIf(!fresh)('fails and names the differing states (and their edges) when the sets differ', () => {
    if ('reason' in committed) return;
    const root = scratch();
    try {
      const real = committed.graph;
      // TLC "reaches" one state the machine does not, and misses one it does (with every edge touching it).
      const forged = 'version=p1:C,p2:O,p3:O;target=O;oldLease=None/0;newLease=None/0;oldGen=0;newGen=0;backfilled=F;mode=disabled;lastIssued=0;monoOk=T';
      const dropped = real.states[0]!;
      const touching = real.edges.filter((e) => splitEdgeLine(e).from === dropped || splitEdgeLine(e).to === dropped);
      forgeEvidence(
        root,
        [...real.states.slice(1), forged],
        real.edges.filter((e) => !touching.includes(e)),
      );
      const r = parityAt(root);
      expect(r.status).toBe('failed');
      if (r.status !== 'failed') return;
      expect(r.p.states).toMatchObject({ onlyModel: [dropped], onlyTlc: [forged], onlyModelCount: 1, onlyTlcCount: 1 });
      expect(r.p.edges).toMatchObject({ onlyModelCount: touching.length, onlyTlcCount: 0 });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it.skipIf(!fresh)('fails on one edge dropped from the evidence, with the states still equal', () => {
    if ('reason' in committed) return;
    const root = scratch();
    try {
      const real = committed.graph;
      // An edge into a state with other ways in, so the state set stays exactly TLC's.
      const missing = real.edges.find((e) => !isSelfLoop(e) && splitEdgeLine(e).label.startsWith('ExpireNew'))!;
      forgeEvidence(
        root,
        real.states,
        real.edges.filter((e) => e !== missing),
      );
      const r = parityAt(root);
      expect(r.status).toBe('failed');
      if (r.status !== 'failed') return;
      expect(r.p.states.equal).toBe(true);
      expect(r.p.edges).toMatchObject({ equal: false, onlyModel: [missing], onlyTlc: [], modelCount: 15636, tlcCount: 15635 });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('edge parity against a mutated machine (machine.provide())', () => {
  it.skipIf(!fresh)('reports an edge difference when one effect sends a step elsewhere, with the same state set', () => {
    // Crafted mutant: in one state where Backfill is a no-op (already backfilled, newGen >= oldGen),
    // its effect jumps to another reachable state of the same target and mode instead. A self-loop
    // contributes no reachability and the new target is reachable anyway, so the states stay TLC's;
    // exactly one labelled edge changes. (No M1–M9 works here: each reaches a violating state the
    // base never does, so their state sets already differ.)
    const sys = fencingSystem() as unknown as AnySystem;
    const base = twinGraph(sys, exploreSystem(sys, { edges: true }));
    const states = new Map(exploreSystem(sys).states.map((s) => [canonicalKey(s as FencingState), s as FencingState]));
    const loop = base.edges.find((e) => isSelfLoop(e) && splitEdgeLine(e).label === 'Backfill')!;
    const from = splitEdgeLine(loop).from;
    const s = states.get(from)!;
    const r = [...states.values()].find((x) => x.target === s.target && x.mode === s.mode && canonicalKey(x) !== from)!;
    const overrides: FencingOverrides = { actions: { Backfill_Merge: (st: FencingState) => (canonicalKey(st) === from ? r : EFFECTS.Backfill_Merge(st)) } };
    const result = parityAt(projectRoot, overrides);
    expect(result.status).toBe('failed');
    if (result.status !== 'failed') return;
    expect(result.p.states.equal).toBe(true);
    expect(result.p.edges).toMatchObject({ equal: false, onlyModel: [edgeLine(from, 'Backfill', canonicalKey(r))], onlyTlc: [loop] });
    expect(result.p.selfLoops).toEqual({ model: 1259, tlc: 1260 });
  });

  it.skipIf(!fresh)('stays equal for an equivalent mutant: dropping the redundant MigrateB_NewLeaseFree changes no edge either', () => {
    const result = parityAt(projectRoot, redundantMigrateGuard);
    expect(result.status).toBe('passed');
    if (result.status !== 'passed') return;
    expect(result.p.edges).toMatchObject({ onlyModel: [], onlyTlc: [], modelCount: 15636, tlcCount: 15636 });
  });
});
