import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalKey, initialState, type FencingBounds } from '../../src/systems/fencing/state.js';
import { parseDotAttributes, parseDotStateGraph } from '../../src/tlc/dot.js';
import { dotToGraph, edgesToIndexedText, indexedTextToEdges, linesSha256, splitEdgeLine, twinGraph } from '../../src/seam/tlc/graph.js';
import { exploreSystem } from '../../src/seam/explore.js';
import { compareGraphs, compareStateSets } from '../../src/seam/parity.js';
import type { AnySystem } from '../../src/seam/package.js';
import { fencingSystem } from '../../src/systems/fencing/system.js';
import { TlcOutputError } from '../../src/tlc/errors.js';
import { parseToolOutput } from '../../src/tlc/tool-output.js';

// tiny-graph.dot / tiny-graph.out: one real TLC run of the real spec with specs/TinyGraph.cfg
// (Pods = {p1, p2}, MaxGen = 1) and `-dump dot,actionlabels` (fixtures/README.md).
const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');
const DOT = fixture('tiny-graph.dot');
const OUT = parseToolOutput(fixture('tiny-graph.out'));
const BOUNDS: FencingBounds = { pods: ['p1', 'p2'], maxGen: 1 };
const SYS = fencingSystem(BOUNDS) as unknown as AnySystem;
const dotToFencingGraph = (text: string) => dotToGraph(SYS, text);
const isSelfLoop = (l: string) => splitEdgeLine(l).from === splitEdgeLine(l).to;

describe("TLC's dot state graph (real -dump dot,actionlabels output)", () => {
  it('reads every node and every edge line: edges = states generated - initial states', () => {
    const g = parseDotStateGraph(DOT);
    expect(OUT).toMatchObject({ outcome: 'ok', generated: 713, distinct: 233 });
    expect(g.strict).toBe(true); // TLC's header; Graphviz would merge parallel edges, the file lists each
    expect(g.nodes.size).toBe(OUT.distinct);
    expect(g.initial).toHaveLength(1);
    expect(g.edges).toHaveLength(OUT.generated! - g.initial.length);
    expect(g.edges.every((e) => !e.stuttering && e.label !== undefined)).toBe(true);
    // Self-loops are written like any other generated successor.
    expect(g.edges.filter((e) => e.from === e.to).length).toBeGreaterThan(0);
  });

  it('undoes TLC escapes in labels: \\\\ → \\, \\" → ", \\n → newline', () => {
    expect(parseDotAttributes(String.raw`label="/\\ x = \"a\"\n/\\ y = 1",style = filled`)).toEqual(
      new Map([
        ['label', '/\\ x = "a"\n/\\ y = 1'],
        ['style', 'filled'],
      ]),
    );
    expect(() => parseDotAttributes('label="open')).toThrow(TlcOutputError);
  });

  it("turns it into canonical states and labelled edges, each label TLC's action with its pod", () => {
    const g = dotToFencingGraph(DOT);
    expect(g.states).toHaveLength(233);
    expect(g.initialStates).toBe(1);
    expect(g.states).toContain(canonicalKey(initialState(BOUNDS)));
    expect(g.generatedEdges).toBe(712);
    expect(g.edges).toHaveLength(712); // no (state, action, successor) written twice
    expect(g.selfLoops).toBe(g.edges.filter(isSelfLoop).length);
    const labels = new Set(g.edges.map((e) => splitEdgeLine(e).label));
    for (const l of ['AcquireO(p1)', 'AcquireO(p2)', 'MigrateB(p2)', 'UpgradePod(p1)', 'DowngradePod(p2)', 'Backfill', 'Enable']) expect(labels).toContain(l);
    // Self-loops here are exactly the two stuttering-free no-op actions of the spec.
    expect(new Set(g.edges.filter(isSelfLoop).map((e) => splitEdgeLine(e).label))).toEqual(new Set(['Backfill', 'ReverseMerge']));
  });

  it('is the XState exploration of the same bounds, edge for edge (a second bound beside the base evidence)', () => {
    const g = dotToFencingGraph(DOT);
    const run = exploreSystem(SYS, { edges: true });
    expect(compareStateSets(run.keys, g.states).equal).toBe(true);
    const twin = twinGraph(SYS, run);
    const c = compareGraphs(twin, g);
    expect(c).toMatchObject({ equal: true, edges: { modelCount: 712, tlcCount: 712 }, selfLoops: { model: g.selfLoops, tlc: g.selfLoops } });
    expect(linesSha256(twin.edges)).toBe(linesSha256(g.edges));
    expect(run.generated).toBe(OUT.generated);
  });

  it("tells an edge TLC labels with another pod from the twin's (the labels are compared)", () => {
    const lying = dotToFencingGraph(DOT.replace('label="AcquireO(p1)"', 'label="AcquireO(p2)"'));
    const c = compareGraphs(twinGraph(SYS, exploreSystem(SYS, { edges: true })), lying);
    expect(c.equal).toBe(false);
    expect(c.edges.onlyTlc.some((e) => splitEdgeLine(e).label === 'AcquireO(p2)')).toBe(true);
  });

  it('rejects unlabelled edges (no actionlabels), truncated files, foreign lines and dangling edges', () => {
    expect(() => dotToFencingGraph(DOT.replace(/ \[label="[^"]*",color="black",fontcolor="black"\];/g, ';'))).toThrow(/no action label: run TLC with -dump dot,actionlabels/);
    expect(() => parseDotStateGraph(DOT.slice(0, DOT.indexOf('{rank = same;')))).toThrow(/truncated/);
    expect(() => parseDotStateGraph(DOT.replace('nodesep=0.35;', 'rankdir=LR;'))).toThrow(/not a DotStateWriter line/);
    expect(() => parseDotStateGraph('State 1:\n/\\ x = 1\n')).toThrow(/not a TLC dot state graph/);
    const firstEdge = /^(-?\d+) -> (-?\d+)/m.exec(DOT)!;
    expect(() => parseDotStateGraph(DOT.replace(firstEdge[0], `${firstEdge[1]} -> 42`))).toThrow(/no node 42/);
  });
});

describe('the committed edge-list form (FROM<TAB>label<TAB>TO, 1-based state lines)', () => {
  const g = dotToFencingGraph(DOT);

  it('round-trips and is sorted by FROM, TO, label', () => {
    const text = edgesToIndexedText(g.edges, g.states);
    expect(indexedTextToEdges(text, g.states)).toEqual(g.edges);
    const rows = text
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t'));
    const sorted = [...rows].sort((a, b) => Number(a[0]) - Number(b[0]) || Number(a[2]) - Number(b[2]) || (a[1]! < b[1]! ? -1 : 1));
    expect(rows).toEqual(sorted);
    expect(rows[0]![0]).toBe('1');
  });

  it('rejects a line outside the state list, a duplicate line and a malformed line', () => {
    const text = edgesToIndexedText(g.edges, g.states);
    const first = text.slice(0, text.indexOf('\n') + 1);
    expect(() => indexedTextToEdges(`${text}${g.states.length + 1}\tEnable\t1\n`, g.states)).toThrow(/outside 1\.\.233/);
    expect(() => indexedTextToEdges(`${text}0\tEnable\t1\n`, g.states)).toThrow(/outside/);
    expect(() => indexedTextToEdges(`${first}${text}`, g.states)).toThrow(/lists an edge twice/);
    expect(() => indexedTextToEdges(`${text}1 Enable 2\n`, g.states)).toThrow(/not FROM<TAB>label<TAB>TO/);
  });
});
