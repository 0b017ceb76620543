import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../src/core/project-root.js';
import { spawnSync } from 'node:child_process';
import { evidenceStatus, readBaseEdges, readBaseStateDump } from '../../../src/systems/fencing/tlc/evidence.js';
import { explore } from '../../../src/systems/fencing/model/explore.js';
import { sha256Text } from '../../../src/systems/fencing/tlc/config.js';
import { canonicalEdgesSha256, edgeLine, edgesToIndexedText, isSelfLoop, splitEdgeLine } from '../../../src/systems/fencing/tlc/edges.js';
import { canonicalKey, DEFAULT_BOUNDS, type FencingState } from '../../../src/systems/fencing/state.js';
import { SPEC_FILE, checkParity, compareAlphabet, compareEdgeSets, compareStateSets, formatEdge, parityTables, specActions } from '../../../src/systems/fencing/model/parity.js';
import { EFFECTS, EVENT_TYPES, type FencingOverrides } from '../../../models/fencing/index.js';
import redundantMigrateGuard from './fixtures/redundant-migrate-guard.js';
import { ownedTempDir } from '../../../src/core/temp-dir.js';

const evidence = evidenceStatus();

describe('parity with the TLA+ spec', () => {
  it('compares state sets both ways and keeps the first differences sorted', () => {
    const c = compareStateSets(['a', 'b', 'd', 'c'], ['b', 'x', 'a'], 1);
    expect(c).toMatchObject({ equal: false, machineCount: 4, tlcCount: 3, onlyMachineCount: 2, onlyTlcCount: 1, onlyMachine: ['c'], onlyTlc: ['x'] });
    expect(compareStateSets(['a', 'b'], ['b', 'a']).equal).toBe(true);
  });

  it("finds every action of the spec's Next as one machine event, and no other", () => {
    const actions = specActions(readFileSync(join(projectRoot, SPEC_FILE), 'utf8'));
    expect([...actions].sort()).toEqual([...EVENT_TYPES].sort());
    expect(compareAlphabet(actions).equal).toBe(true);
    expect(compareAlphabet(['AcquireO', 'Teleport'], ['AcquireO', 'Enable'])).toEqual({ equal: false, onlySpec: ['Teleport'], onlyMachine: ['Enable'] });
  });

  it('lays every action beside its event and implementation, every invariant beside its checks', async () => {
    const t = await parityTables();
    expect(t.actions.map((r) => r.action.replace('(p)', ''))).toEqual([...EVENT_TYPES]);
    expect(t.actions.find((r) => r.action === 'AcquireB(p)')?.guards).toContain('AcquireB_OldLeaseFree');
    expect(t.invariants.every((r) => !r.tla.includes('not in spec'))).toBe(true);
    expect(t.guards.find((r) => r.guard === 'AdvanceToC_Gate')?.tla).toBe('named definition');
  });

  it.skipIf(!evidence.ok)(`reaches exactly the states in TLC's dump${evidence.ok ? '' : ` (skipped: ${evidence.reason})`}`, () => {
    const dump = readBaseStateDump();
    const run = explore({ bounds: dump.bounds });
    const c = compareStateSets(run.states.keys(), dump.states);
    expect(c.onlyMachine).toEqual([]);
    expect(c.onlyTlc).toEqual([]);
    expect(run.distinct).toBe(dump.distinct);
    expect(run.generated).toBe(dump.generated);
  });

  it.skipIf(!evidence.ok)("takes exactly the labelled edges of TLC's state graph, self-loops included", () => {
    const tlc = readBaseEdges();
    const run = explore({ bounds: tlc.bounds, edges: true });
    const c = compareEdgeSets(run.edges!, tlc.edges);
    expect(c.onlyMachine).toEqual([]);
    expect(c.onlyTlc).toEqual([]);
    expect(c).toMatchObject({ equal: true, machineCount: 15636, tlcCount: 15636, machineSelfLoops: 1260, tlcSelfLoops: 1260 });
    expect(c.machineSha256).toBe(tlc.evidence.canonicalSha256);
    expect(run.selfLoops).toBe(tlc.evidence.selfLoops);
    // Each transition is one edge: the machine's counts against TLC's (its edge dump and its own
    // "states generated" = initial states + edges), never against the machine's own edge list.
    expect(run.transitions).toBe(tlc.edges.length);
    expect(run.generated).toBe(tlc.evidence.initialStates + tlc.edges.length);
    expect(run.generated).toBe(readBaseStateDump().generated);
  });

  it.skipIf(!evidence.ok)('passes on the committed evidence: states, edges and alphabet', () => {
    const r = checkParity();
    expect(r.status).toBe('passed');
    expect(r.sets!.equal && r.edges!.equal && r.alphabet!.equal).toBe(true);
    expect(r.machine).toMatchObject({ distinct: 4117, generated: 15637, edges: 15636, selfLoops: 1260 });
    expect(r.tlc!.edges).toMatchObject({ count: 15636, selfLoops: 1260 });
  });

  it.skipIf(!evidence.ok)('`fencecheck parity --json` reports the edge figures in its StageReport', () => {
    const r = spawnSync(process.execPath, ['bin/fencecheck.mjs', 'parity', '--json'], { cwd: projectRoot, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { status: string; summary: string; counts: Record<string, number>; details: { edges: { equal: boolean } } };
    expect(report.status).toBe('passed');
    expect(report.counts).toMatchObject({ machineEdges: 15636, tlcEdges: 15636, machineSelfLoops: 1260, tlcSelfLoops: 1260, onlyMachineEdges: 0, onlyTlcEdges: 0 });
    expect(report.details.edges.equal).toBe(true);
    expect(report.summary).toMatch(/exactly its 15636 labelled edges \(1260 self-loops\)/);
  });

  it('compares edge sets both ways, with self-loops and hashes per side, and prints an edge readably', () => {
    const a = edgeLine('x=1;y=0', 'Inc', 'x=2;y=0');
    const loop = edgeLine('x=1;y=0', 'Skip', 'x=1;y=0');
    const back = edgeLine('x=2;y=0', 'Dec', 'x=1;y=0');
    const loop2 = edgeLine('x=2;y=0', 'Skip', 'x=2;y=0');
    const c = compareEdgeSets([a, loop], [loop]);
    expect(c).toMatchObject({ equal: false, onlyMachine: [a], onlyTlc: [], machineSelfLoops: 1, tlcSelfLoops: 1, machineSha256: canonicalEdgesSha256([a, loop]), tlcSha256: canonicalEdgesSha256([loop]) });
    // The other way, and both at once, with a different self-loop count per side.
    expect(compareEdgeSets([loop], [a, loop])).toMatchObject({ equal: false, onlyMachine: [], onlyTlc: [a] });
    const d = compareEdgeSets([a, loop, loop2], [back, loop]);
    expect(d).toMatchObject({ equal: false, onlyMachine: [a, loop2].sort(), onlyTlc: [back], machineSelfLoops: 2, tlcSelfLoops: 1 });
    expect(d.machineSha256).not.toBe(d.tlcSha256);
    const same = compareEdgeSets([a, loop], [loop, a]);
    expect(same).toMatchObject({ equal: true, onlyMachine: [], onlyTlc: [] });
    expect(same.machineSha256).toBe(same.tlcSha256);
    expect(formatEdge(a)).toBe('  Inc from x=1;y=0\n      → x=2');
    expect(formatEdge(loop)).toMatch(/→ itself \(self-loop\)$/);
  });
});

describe('parity outcomes on a scratch checkout', () => {
  const scratch = (): string => {
    const root = ownedTempDir('parity');
    mkdirSync(join(root, 'tla'));
    for (const f of [SPEC_FILE, 'tla/fencing/RedisClusterFencingMigration.cfg']) copyFileSync(join(projectRoot, f), join(root, f));
    return root;
  };

  it('is not run, never passed, when the TLC evidence is missing', () => {
    const root = scratch();
    try {
      const r = checkParity(root);
      expect(r.status).toBe('not-run');
      expect(r.reason).toMatch(/^no TLC evidence/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  /** Writes self-consistent evidence (hashes, counts) for a forged TLC state and edge set into `root`. */
  const forgeEvidence = (root: string, states: readonly string[], edges: readonly string[]) => {
    mkdirSync(join(root, 'evidence/tlc/fencing'), { recursive: true });
    const sorted = [...states].sort();
    const statesText = `${sorted.join('\n')}\n`;
    const edgesText = edgesToIndexedText(edges, sorted);
    writeFileSync(join(root, 'evidence/tlc/fencing/base.states.txt'), statesText);
    writeFileSync(join(root, 'evidence/tlc/fencing/base.edges.txt'), edgesText);
    const meta = JSON.parse(readFileSync(join(projectRoot, 'evidence/tlc/fencing/base.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    const e = [...edges].sort();
    writeFileSync(
      join(root, 'evidence/tlc/fencing/base.json'),
      JSON.stringify({
        ...meta,
        distinct: sorted.length,
        generated: 1 + e.length,
        states: { ...meta.states, sha256: sha256Text(statesText), count: sorted.length },
        edges: { ...meta.edges, sha256: sha256Text(edgesText), count: e.length, dotEdges: e.length, selfLoops: e.filter(isSelfLoop).length, canonicalSha256: canonicalEdgesSha256(e) },
      }),
    );
  };

  it.skipIf(!evidence.ok)('fails and names the differing states (and their edges) when the sets differ', () => {
    const root = scratch();
    try {
      const real = readBaseStateDump();
      const realEdges = readBaseEdges().edges;
      // TLC "reaches" one state the machine does not, and misses one it does (with every edge touching it).
      const forged = 'version=p1:C,p2:O,p3:O;target=O;oldLease=None/0;newLease=None/0;oldGen=0;newGen=0;backfilled=F;mode=disabled;lastIssued=0;monoOk=T';
      const dropped = real.states[0]!;
      const touching = realEdges.filter((e) => splitEdgeLine(e).from === dropped || splitEdgeLine(e).to === dropped);
      forgeEvidence(root, [...real.states.slice(1), forged], realEdges.filter((e) => !touching.includes(e)));
      const r = checkParity(root);
      expect(r.status).toBe('failed');
      expect(r.sets).toMatchObject({ onlyMachine: [dropped], onlyTlc: [forged], onlyMachineCount: 1, onlyTlcCount: 1 });
      expect(r.edges).toMatchObject({ onlyMachineCount: touching.length, onlyTlcCount: 0 });
      expect(r.reason).toMatch(/1 states only the machine reaches, 1 only TLC reaches; \d+ labelled edges only the machine has, 0 only TLC has/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it.skipIf(!evidence.ok)('fails on one edge dropped from the evidence, with the states still equal', () => {
    const root = scratch();
    try {
      const real = readBaseStateDump();
      const realEdges = readBaseEdges().edges;
      // An edge into a state with other ways in, so the state set stays exactly TLC's.
      const missing = realEdges.find((e) => !isSelfLoop(e) && splitEdgeLine(e).label.startsWith('ExpireNew'))!;
      forgeEvidence(root, real.states, realEdges.filter((e) => e !== missing));
      const r = checkParity(root);
      expect(r.status).toBe('failed');
      expect(r.sets!.equal).toBe(true);
      expect(r.edges).toMatchObject({ equal: false, onlyMachine: [missing], onlyTlc: [], machineCount: 15636, tlcCount: 15635 });
      expect(r.reason).toBe('1 labelled edges only the machine has, 0 only TLC has');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('edge parity against a mutated machine (machine.provide())', () => {
  it.skipIf(!evidence.ok)('reports an edge difference when one effect sends a step elsewhere, with the same state set', () => {
    // Crafted mutant: in one state where Backfill is a no-op (already backfilled, newGen >= oldGen),
    // its effect jumps to another reachable state of the same target and mode instead. A self-loop
    // contributes no reachability and the new target is reachable anyway, so the states stay TLC's;
    // exactly one labelled edge changes. (No M1–M9 works here: each reaches a violating state the
    // base never does, so their state sets already differ.)
    const base = explore({ bounds: DEFAULT_BOUNDS, edges: true });
    const loop = base.edges!.find((e) => isSelfLoop(e) && splitEdgeLine(e).label === 'Backfill')!;
    const from = splitEdgeLine(loop).from;
    const s = base.states.get(from)!;
    const r = [...base.states.values()].find((x) => x.target === s.target && x.mode === s.mode && canonicalKey(x) !== from)!;
    const overrides: FencingOverrides = {
      actions: { Backfill_Merge: (st: FencingState) => (canonicalKey(st) === from ? r : EFFECTS.Backfill_Merge(st)) },
    };
    const result = checkParity(undefined, 5, { overrides });
    expect(result.status).toBe('failed');
    expect(result.sets!.equal).toBe(true);
    expect(result.edges).toMatchObject({
      equal: false,
      onlyMachine: [edgeLine(from, 'Backfill', canonicalKey(r))],
      onlyTlc: [loop],
      machineSelfLoops: 1259,
      tlcSelfLoops: 1260,
    });
    expect(result.reason).toBe('1 labelled edges only the machine has, 1 only TLC has');
  });

  it.skipIf(!evidence.ok)('stays equal for an equivalent mutant: dropping the redundant MigrateB_NewLeaseFree changes no edge either', () => {
    const result = checkParity(undefined, 5, { overrides: redundantMigrateGuard });
    expect(result.status).toBe('passed');
    expect(result.sets!.equal).toBe(true);
    expect(result.edges!.equal).toBe(true);
    expect(result.edges).toMatchObject({ onlyMachine: [], onlyTlc: [], machineCount: 15636, tlcCount: 15636 });
  });
});
