import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { InitLimiterModelEvent } from '../../models/init-limiter/index.js';
import type { InitLimiterModelState } from '../../src/systems/init-limiter/model-state.js';
import { initLimiterStateFromTlc, initLimiterSystem } from '../../src/systems/init-limiter/system.js';
import { projectRoot } from '../../src/core/project-root.js';
import { readSystemEvidence } from '../../src/seam/evidence.js';
import { dumpToSystemKeys } from '../../src/seam/tlc/graph.js';
import { exploreSystem } from '../../src/seam/explore.js';
import { compareStateSets, readCanonicalStateList } from '../../src/seam/parity.js';
import type { ModelSystem } from '../../src/seam/system.js';
import { parseDotStateGraph } from '../../src/tlc/dot.js';
import { TlcOutputError } from '../../src/tlc/errors.js';
import { locateTlc } from '../../src/tlc/locate.js';
import { runTlc } from '../../src/tlc/run.js';
import { parseTlaState } from '../../src/core/tla-value.js';

const sys = initLimiterSystem();

const record = (phase: string, f: Partial<Record<'basis' | 'pv' | 'adm' | 'asked' | 'sent' | 'written', number>> = {}, reading = 'steady', dl = 'None', captured = 'FALSE'): string =>
  `[ phase |-> "${phase}",\n        basis |-> ${f.basis ?? 0},\n        pv |-> ${f.pv ?? 0},\n        adm |-> ${f.adm ?? 0},\n        asked |-> ${f.asked ?? 0},\n        sent |-> ${f.sent ?? 0},\n        written |-> ${f.written ?? 0},\n        reading |-> "${reading}",\n        dl |-> ${dl},\n        captured |-> ${captured} ]`;

// Two states of TLC's -dump of the base config, in its layout (records wrapped over lines, clients in TLC's order).
const DUMP_EXCERPT = `State 560:
/\\ cl = ( s1 :>
      ${record('sending', {}, 'steady', '1', 'TRUE')} @@
  s2 :>
      ${record('serializing', { adm: 1, asked: 1, sent: 1 })} @@
  p1 :>
      ${record('off')} @@
  p2 :>
      ${record('off')} )
/\\ holders = {s1, s2}
/\\ observed = {}
/\\ version = 2
/\\ inUse = 2
/\\ queue = {}

State 1800:
/\\ cl = ( s1 :>
      ${record('peeking', { basis: 1, pv: 1 })} @@
  s2 :>
      ${record('off')} @@
  p1 :>
      ${record('sending', {}, 'stalled', '1')} @@
  p2 :>
      ${record('queued')} )
/\\ holders = {p1}
/\\ observed = {}
/\\ version = 2
/\\ inUse = 1
/\\ queue = {p2}
`;

/** Every labelled edge of the twin, `from|label|to` in canonical keys, sorted (duplicates kept). */
function twinEdges(system: ModelSystem<InitLimiterModelState, InitLimiterModelEvent>): string[] {
  const x = exploreSystem(system, { invariants: [] });
  return x.states.flatMap((s) => system.successors(s).map((n) => `${system.key(s)}|${system.label(n.event)}|${system.key(n.state)}`)).sort();
}

describe('init-limiter twin vs TLC: state-set parity (offline, evidence/tlc/init-limiter/)', () => {
  const { evidence, freshness } = readSystemEvidence('init-limiter', 'base');

  it('the committed evidence is fresh: pinned to the spec and config as they are now', () => {
    expect(freshness).toEqual({ fresh: true });
    expect(evidence).toMatchObject({ outcome: 'ok', distinct: 2455, generated: 19746, depth: 12 });
    expect(evidence!.tlcVersion).toMatch(/^TLC2 Version \d{4}\.\d{2}\.\d{2}/);
    expect(evidence!.states!.count).toBe(2455);
  });

  it("the twin reaches exactly TLC's state set, with TLC's generated count and depth", () => {
    const x = exploreSystem(sys, { invariants: [] });
    const p = compareStateSets(x.keys, readCanonicalStateList(evidence!.states!.file));
    expect(p).toMatchObject({ equal: true, modelCount: 2455, tlcCount: 2455 });
    expect(x.generated).toBe(evidence!.generated);
    expect(x.depth).toBe(evidence!.depth);
  });

  it("TLC's dump is read into the same canonical keys (wrapped records, sets, model values, None)", () => {
    const keys = dumpToSystemKeys(sys, DUMP_EXCERPT);
    expect(keys).toHaveLength(2);
    const committed = new Set(readCanonicalStateList(evidence!.states!.file));
    for (const k of keys) expect(committed.has(k)).toBe(true);
    const s = initLimiterStateFromTlc(parseTlaState(DUMP_EXCERPT.split('State 1800:')[1]!));
    expect(s).toMatchObject({
      version: 2,
      holders: ['p1'],
      inUse: 1,
      queue: ['p2'],
      observed: [],
      cl: { p1: { phase: 'sending', reading: 'stalled', dl: 1 }, s1: { phase: 'peeking', basis: 1, pv: 1, dl: null } },
    });
  });

  it('refuses a TLC state that is not one of this spec, naming what failed', () => {
    const block = DUMP_EXCERPT.split('State 1800:')[1]!;
    const read = (text: string) => () => initLimiterStateFromTlc(parseTlaState(text));
    expect(() => initLimiterStateFromTlc({ ...parseTlaState(block), extra: { kind: 'int', value: 1 } })).toThrow(/variables the init-limiter model does not: extra/);
    expect(read(block.replace('inUse = 1', 'inUse = TRUE'))).toThrow(/inUse: expected an integer, got bool/);
    expect(read(block.replace('"peeking"', '"waiting"'))).toThrow(/cl\[s1\]\.phase: "waiting" is not one of off, peeking/);
    expect(read(block.replace('queue = {p2}', 'queue = {q2}'))).toThrow(/queue: "q2" is not a client model value/);
    expect(read(block.replace('dl |-> 1', 'dl |-> 2'))).toThrow(/cl\[p1\]\.dl: expected None, -1, 0 or 1, got 2/);
    expect(read(block.replace('captured |-> FALSE ] )', 'captured |-> FALSE, extra |-> 1 ] )'))).toThrow(TlcOutputError);
    expect(read(block.replace('observed = {}', 'observed = {"cutSomething"}'))).toThrow(/observed: "cutSomething" is not one of/);
  });
});

const located = locateTlc();
const why = located.ok ? '' : ` — SKIPPED: ${located.reason}`;

describe(`init-limiter twin vs a live TLC run${why}`, () => {
  it.skipIf(!located.ok)(
    `TLC's -dump of the base config equals the committed list and the twin's states${why}`,
    async () => {
      if (!located.ok) return;
      const run = await runTlc({ spec: join(projectRoot, sys.spec), config: join(projectRoot, sys.config), dump: true, workers: 1, tools: located.tools, timeoutMs: 300_000 });
      expect(run.kind).toBe('completed');
      if (run.kind !== 'completed') return;
      expect(run.result).toMatchObject({ outcome: 'ok', distinct: 2455, generated: 19746 });
      expect(compareStateSets(dumpToSystemKeys(sys, run.dumpText!), readCanonicalStateList('evidence/tlc/init-limiter/base.states.txt')).equal).toBe(true);
    },
    300_000,
  );

  it.skipIf(!located.ok)(
    `TLC's labelled state graph equals the twin's, edge for edge (from, action instance, to)${why}`,
    async () => {
      if (!located.ok) return;
      const run = await runTlc({ spec: join(projectRoot, sys.spec), config: join(projectRoot, sys.config), graph: true, workers: 1, tools: located.tools, timeoutMs: 300_000 });
      expect(run.kind).toBe('completed');
      if (run.kind !== 'completed') return;
      const g = parseDotStateGraph(run.dotText!);
      const keyOf = new Map([...g.nodes].map(([fp, text]) => [fp, sys.key(sys.fromTlc(parseTlaState(text)))]));
      const tlc = g.edges.map((e) => `${keyOf.get(e.from)}|${e.label}|${keyOf.get(e.to)}`).sort();
      const twin = twinEdges(sys);
      expect(tlc).toHaveLength(19745); // generated minus the initial state
      expect(twin).toHaveLength(tlc.length);
      const firstDiff = tlc.findIndex((l, i) => l !== twin[i]);
      expect(firstDiff, firstDiff < 0 ? '' : `TLC ${tlc[firstDiff]} vs twin ${twin[firstDiff]}`).toBe(-1);
    },
    300_000,
  );
});
