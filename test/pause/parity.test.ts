import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { pauseSystem, pauseStateFromTlc } from '../../src/systems/pause/system.js';
import { readSystemEvidence } from '../../src/seam/evidence.js';
import { dumpToSystemKeys } from '../../src/seam/tlc/graph.js';
import { exploreSystem } from '../../src/seam/explore.js';
import { compareStateSets, readCanonicalStateList } from '../../src/seam/parity.js';
import { TlcOutputError } from '../../src/tlc/errors.js';
import { locateTlc } from '../../src/tlc/locate.js';
import { runTlc } from '../../src/tlc/run.js';
import { parseTlaState } from '../../src/core/tla-value.js';

const sys = pauseSystem();

// Two states verbatim from TLC's -dump of the base config (values wrapped over lines, sets in TLC's order).
const DUMP_EXCERPT = `State 29:
/\\ ready = (r1 :> TRUE @@ r2 :> FALSE)
/\\ snap = (r1 :> [paused |-> FALSE, version |-> 0] @@ r2 :> None)
/\\ dropped = (r1 :> {} @@ r2 :> {})
/\\ applied = (r1 :> 0 @@ r2 :> 0)
/\\ pending = { [paused |-> FALSE, version |-> 0, by |-> r1],
  [paused |-> TRUE, version |-> 0, by |-> r1] }
/\\ synced = (r1 :> 0 @@ r2 :> 0)
/\\ chan = (r1 :> {} @@ r2 :> {})
/\\ history = <<>>
/\\ subscribed = (r1 :> TRUE @@ r2 :> FALSE)
/\\ calls = 2
/\\ age = (r1 :> 0 @@ r2 :> 0)

State 4533:
/\\ ready = (r1 :> FALSE @@ r2 :> TRUE)
/\\ snap = ( r1 :> [paused |-> FALSE, version |-> 0] @@
  r2 :> [paused |-> TRUE, version |-> 2] )
/\\ dropped = (r1 :> {1, 2} @@ r2 :> {})
/\\ applied = (r1 :> 0 @@ r2 :> 2)
/\\ pending = {}
/\\ synced = (r1 :> 0 @@ r2 :> 0)
/\\ chan = ( r1 :> {} @@
  r2 :> {[paused |-> FALSE, version |-> 1], [paused |-> TRUE, version |-> 2]} )
/\\ history = <<FALSE, TRUE>>
/\\ subscribed = (r1 :> TRUE @@ r2 :> TRUE)
/\\ calls = 2
/\\ age = (r1 :> 0 @@ r2 :> 0)
`;

describe('pause twin vs TLC: state-set parity (offline, evidence/tlc/pause/)', () => {
  const { evidence, freshness } = readSystemEvidence('pause', 'base');

  it('the committed evidence is fresh: pinned to the spec and config as they are now, TLC rev cc6b616cf', () => {
    expect(freshness).toEqual({ fresh: true });
    expect(evidence).toMatchObject({ outcome: 'ok', distinct: 15268, generated: 108901, depth: 17, tlcVersion: expect.stringMatching(/^TLC2 Version \S+ \(rev: cc6b616cf\)$/) });
    expect(evidence!.states!.count).toBe(15268);
  });

  it("the twin reaches exactly TLC's state set, with TLC's generated count", () => {
    const x = exploreSystem(sys, { invariants: [] });
    const tlc = readCanonicalStateList(evidence!.states!.file);
    const p = compareStateSets(x.keys, tlc);
    expect(p).toMatchObject({ equal: true, modelCount: 15268, tlcCount: 15268 });
    expect(x.generated).toBe(evidence!.generated);
    expect(x.depth).toBe(evidence!.depth);
  });

  it("TLC's dump is read into the same canonical keys (sets in any order, wrapped values)", () => {
    const keys = dumpToSystemKeys(sys, DUMP_EXCERPT);
    expect(keys).toHaveLength(2);
    const committed = new Set(readCanonicalStateList(evidence!.states!.file));
    for (const k of keys) expect(committed.has(k)).toBe(true);
    expect(keys).toContain(
      'history=FT;calls=2;pending={};chan=r1:{},r2:{F/1,T/2};dropped=r1:{1,2},r2:{};subscribed=r1:T,r2:T;snap=r1:F/0,r2:T/2;age=r1:0,r2:0;ready=r1:F,r2:T;applied=r1:0,r2:2;synced=r1:0,r2:0',
    );
  });

  it('refuses a TLC state that is not one of this spec', () => {
    const block = DUMP_EXCERPT.split('State 4533:')[0]!.replace('State 29:', '');
    expect(() => pauseStateFromTlc({ ...parseTlaState(block), extra: { kind: 'int', value: 1 } })).toThrow(/extra/);
    expect(() => pauseStateFromTlc(parseTlaState(block.replace('calls = 2', 'calls = TRUE')))).toThrow(TlcOutputError);
    expect(() => pauseStateFromTlc(parseTlaState(block.replace('by |-> r1]', 'by |-> p1]')))).toThrow(/replica/);
  });
});

const located = locateTlc();
const why = located.ok ? '' : ` — SKIPPED: ${located.reason}`;

describe(`pause twin vs a live TLC run${why}`, () => {
  it.skipIf(!located.ok)(
    `TLC's -dump of the base config equals the committed list and the twin${why}`,
    async () => {
      if (!located.ok) return;
      const run = await runTlc({ spec: join(projectRoot, sys.spec), config: join(projectRoot, sys.config), dump: true, workers: 1, tools: located.tools, timeoutMs: 300_000 });
      expect(run.kind).toBe('completed');
      if (run.kind !== 'completed') return;
      expect(run.result).toMatchObject({ outcome: 'ok', distinct: 15268, generated: 108901 });
      const live = dumpToSystemKeys(sys, run.dumpText!);
      expect(compareStateSets(live, readCanonicalStateList('evidence/tlc/pause/base.states.txt')).equal).toBe(true);
    },
    300_000,
  );
});
