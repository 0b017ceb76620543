import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { FAILOVER_BASE_BOUNDS } from '../../src/systems/fencing/failover/model-state.js';
import { failoverStateFromTlc, failoverSystem } from '../../src/systems/fencing/failover/system.js';
import { readSystemEvidence } from '../../src/seam/evidence.js';
import { dumpToSystemKeys } from '../../src/seam/tlc/graph.js';
import { exploreSystem } from '../../src/seam/explore.js';
import { compareStateSets, readCanonicalStateList } from '../../src/seam/parity.js';
import { TlcOutputError } from '../../src/tlc/errors.js';
import { locateTlc } from '../../src/tlc/locate.js';
import { runTlc } from '../../src/tlc/run.js';
import { parseTlaState } from '../../src/core/tla-value.js';

const sys = failoverSystem();

// Two states verbatim from TLC's -dump of the base config (fields and variables in TLC's order).
const DUMP_EXCERPT = `State 2:
/\\ pending = {[gen |-> 1, pod |-> p1]}
/\\ primary = [gen |-> 1, lease |-> [owner |-> p1, gen |-> 1]]
/\\ lastAcked = 0
/\\ held = (p1 :> 0 @@ p2 :> 0 @@ p3 :> 0)
/\\ replica = [gen |-> 0, lease |-> [owner |-> None, gen |-> 0]]
/\\ failovers = 0
/\\ monoOk = TRUE

State 322:
/\\ pending = {}
/\\ primary = [gen |-> 3, lease |-> [owner |-> p2, gen |-> 3]]
/\\ lastAcked = 3
/\\ held = (p1 :> 0 @@ p2 :> 3 @@ p3 :> 0)
/\\ replica = [gen |-> 3, lease |-> [owner |-> p2, gen |-> 3]]
/\\ failovers = 1
/\\ monoOk = TRUE
`;

describe('failover twin vs TLC: state-set parity (offline, evidence/tlc/failover/)', () => {
  const { evidence, freshness } = readSystemEvidence('failover', 'base');

  it('the committed evidence is fresh: pinned to the spec and config as they are now, TLC rev cc6b616cf', () => {
    expect(freshness).toEqual({ fresh: true });
    expect(evidence).toMatchObject({ outcome: 'ok', distinct: 742, generated: 2206, depth: 15, tlcVersion: expect.stringMatching(/^TLC2 Version \S+ \(rev: cc6b616cf\)$/) });
    expect(evidence!.states!.count).toBe(742);
  });

  it("the twin reaches exactly TLC's state set, with TLC's generated count", () => {
    const x = exploreSystem(sys, { invariants: [] });
    const p = compareStateSets(x.keys, readCanonicalStateList(evidence!.states!.file));
    expect(p).toMatchObject({ equal: true, modelCount: 742, tlcCount: 742 });
    expect(x.generated).toBe(evidence!.generated);
    expect(x.depth).toBe(evidence!.depth);
  });

  it('turns red on a twin that is wrong where no invariant looks: WAIT counted as answered only once the replica is ahead', () => {
    const offByOne = failoverSystem(FAILOVER_BASE_BOUNDS, {
      guards: { WaitAcked_Replicated: (s, ev) => ev.type === 'WaitAcked' && s.replica.gen > ev.a.gen },
    });
    const x = exploreSystem(offByOne);
    expect(x.verdicts.every((v) => v.holds)).toBe(true);
    const p = compareStateSets(x.keys, readCanonicalStateList(evidence!.states!.file));
    expect(p).toMatchObject({ equal: false, modelCount: 198, tlcCount: 742, onlyModelCount: 0, onlyTlcCount: 544 });
  });

  it("TLC's dump is read into the same canonical keys (record fields in any order, None as no owner)", () => {
    const keys = dumpToSystemKeys(sys, DUMP_EXCERPT);
    expect(keys).toHaveLength(2);
    const committed = new Set(readCanonicalStateList(evidence!.states!.file));
    for (const k of keys) expect(committed.has(k)).toBe(true);
    expect(keys).toContain('primary=p1/1#1;replica=None/0#0;pending={p1/1};held=p1:0,p2:0,p3:0;lastAcked=0;monoOk=T;failovers=0');
  });

  it('refuses a TLC state that is not one of this spec', () => {
    const block = DUMP_EXCERPT.split('State 322:')[0]!.replace('State 2:', '');
    expect(() => failoverStateFromTlc({ ...parseTlaState(block), extra: { kind: 'int', value: 1 } })).toThrow(/extra/);
    expect(() => failoverStateFromTlc(parseTlaState(block.replace('lastAcked = 0', 'lastAcked = TRUE')))).toThrow(TlcOutputError);
    expect(() => failoverStateFromTlc(parseTlaState(block.replace('pod |-> p1]', 'pod |-> r1]')))).toThrow(/pod/);
    expect(() => failoverStateFromTlc(parseTlaState(block.replace('[owner |-> None, gen |-> 0]', '[owner |-> None]')))).toThrow(TlcOutputError);
  });
});

const located = locateTlc();
const why = located.ok ? '' : ` — SKIPPED: ${located.reason}`;

describe(`failover twin vs a live TLC run${why}`, () => {
  it.skipIf(!located.ok)(
    `TLC's -dump of the base config equals the committed list and the twin${why}`,
    async () => {
      if (!located.ok) return;
      const run = await runTlc({ spec: join(projectRoot, sys.spec), config: join(projectRoot, sys.config), dump: true, workers: 1, tools: located.tools, timeoutMs: 300_000 });
      expect(run.kind).toBe('completed');
      if (run.kind !== 'completed') return;
      expect(run.result).toMatchObject({ outcome: 'ok', distinct: 742, generated: 2206 });
      const live = dumpToSystemKeys(sys, run.dumpText!);
      expect(compareStateSets(live, readCanonicalStateList('evidence/tlc/failover/base.states.txt')).equal).toBe(true);
    },
    300_000,
  );
});
