// The model layer over every system, all through the seam's one exploration.
import { describe, expect, it } from 'vitest';
import { loadManifest, mutantsFor, type MutantEntry } from '../../src/core/manifest.js';
import { runner as modelLayer } from '../../src/mutants/layers/model.js';
import { runSeamModelMutant, runSeamModelMutants } from '../../src/seam/model-mutant.js';
import { readSystemEvidence } from '../../src/seam/evidence.js';
import { exploreSystem } from '../../src/seam/explore.js';
import { SYSTEMS } from '../../src/registry/systems.js';

const manifest = loadManifest();
const byId = (id: string): MutantEntry => manifest.mutants.find((m) => m.id === id)!;
const seamEntries = [...mutantsFor(manifest, 'model', 'pause'), ...mutantsFor(manifest, 'model', 'failover')];
const sys = await SYSTEMS.failover!();
const base = exploreSystem(sys);
const r1 = byId('R1');
const withPatch = (entry: MutantEntry, patch: string, fields: Partial<MutantEntry> = {}): MutantEntry => ({ ...entry, ...fields, layers: { model: { patch: `test/mutants/fixtures/${patch}` } } });

describe('the model layer on the seam', () => {
  it("kills P1–P6, P13, P14 and R1, each by its expected invariant after as many states as TLC's counterexample", async () => {
    const lines: string[] = [];
    const results = await runSeamModelMutants(seamEntries, { log: (l) => lines.push(l) }, SYSTEMS);
    expect(results.map((r) => r.id)).toEqual(['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P13', 'P14', 'R1']);
    for (const r of results) {
      const entry = byId(r.id);
      const tlc = readSystemEvidence(entry.system, r.id);
      expect(tlc.freshness, r.id).toEqual({ fresh: true });
      expect({ id: r.id, layer: r.layer, verdict: r.verdict, violated: r.violated, traceLength: r.traceLength }).toEqual({
        id: r.id,
        layer: 'model',
        verdict: 'killed',
        violated: entry.expectedInvariant,
        traceLength: tlc.evidence!.traceLength,
      });
      // Every system's counterexample is saved as a trace/2 file (src/seam/trace.ts).
      expect(r.tracePath, r.id).toMatch(new RegExp(`model-${r.id}\\.json$`));
    }
    // R1 re-issues generation 1 to p2 while p1 still fences with it: T2 and T1 at once.
    expect(results.at(-1)!.alsoBroken).toEqual(['Inv_SingleAuthority']);
    expect(lines.join('\n')).toMatch(
      /\[model\] R1: Inv_Monotonic violated after 3 actions \(\S*model-R1\.json\)\n\s+0\. Init\n\s+1\. Acquire\(p1\) .*\n\s+2\. Failover .*\n\s+3\. Acquire\(p2\) .*breaks Inv_SingleAuthority,Inv_Monotonic/,
    );
  });

  it("keeps the entries' order across systems, fencing included", async () => {
    const results = await modelLayer.run([byId('R1'), byId('M9'), byId('P5')], {});
    expect(results.map((r) => [r.id, r.verdict, r.violated])).toEqual([
      ['R1', 'killed', 'Inv_Monotonic'],
      ['M9', 'killed', 'Inv_SlotRulesSafe'],
      ['P5', 'killed', 'Inv_ReadyAfterSnapshot'],
    ]);
  });

  describe('verdicts other than killed, on the replication twin', () => {
    it("a patch that leaves the reachable set as the base's is equivalent, not a survivor", async () => {
      const r = await runSeamModelMutant(withPatch(r1, 'replication-same-guard.ts'), sys, base);
      expect(r).toMatchObject({ verdict: 'equivalent', reason: `same reachable state set as the base (${base.distinct} states)` });
    });

    it('a patch that changes the reachable set and breaks nothing survived', async () => {
      const r = await runSeamModelMutant(withPatch(r1, 'replication-no-failover.ts', { target: 'Failover_Left' }), sys, base);
      expect(r.verdict).toBe('survived');
      expect(r.reason).toMatch(new RegExp(`^\\d+ reachable states \\(base ${base.distinct}\\), every invariant holds$`));
    });

    it('an expected invariant the mutant does not break, another one broken: wrong-invariant with that counterexample', async () => {
      const pause = await SYSTEMS.pause!();
      // P5 reports ready before the snapshot; it never reverts a version.
      const r = await runSeamModelMutant({ ...byId('P5'), expectedInvariant: 'Inv_NoRevert' }, pause, exploreSystem(pause));
      expect(r).toMatchObject({ verdict: 'wrong-invariant', violated: 'Inv_ReadyAfterSnapshot', traceLength: 2 });
    });

    it('TypeOK checked with the expected invariant: a mutant that first leaves the types is wrong-invariant, not killed', async () => {
      const r = await runSeamModelMutant(withPatch(r1, 'replication-gen-unbounded.ts', { target: 'Acquire_GenLeft' }), sys, base);
      expect(r).toMatchObject({ verdict: 'wrong-invariant', violated: 'TypeOK', reason: 'TypeOK broke first' });
    });

    it('a patch naming a guard the machine lacks, or not its target, is invalid', async () => {
      const pause = await SYSTEMS.pause!();
      const pauseBase = { ...base, keys: [] };
      const unknown = await runSeamModelMutant(withPatch(byId('P1'), 'pause-unknown-guard.ts'), pause, pauseBase);
      expect(unknown).toMatchObject({ verdict: 'invalid', reason: expect.stringMatching(/the machine has no guard named Deliver_VersionChek/) });
      const other = await runSeamModelMutant(withPatch(byId('P1'), 'pause-not-target.ts'), pause, pauseBase);
      expect(other).toMatchObject({ verdict: 'invalid', reason: expect.stringMatching(/does not override its target Deliver_VersionCheck \(overrides: Read_FailClosed\)/) });
    });

    it('an entry of another system than the one given is invalid, and an unknown invariant too', async () => {
      expect(await runSeamModelMutant(byId('P1'), sys, base)).toMatchObject({ verdict: 'invalid', reason: expect.stringMatching(/failover has no invariant Inv_NoRevert/) });
      expect(await runSeamModelMutant({ ...byId('P1'), expectedInvariant: 'Inv_Monotonic' }, sys, base)).toMatchObject({ verdict: 'invalid', reason: 'P1 is a pause mutant, not one of failover' });
    });

    it('a system without a model layer on the seam: every entry of it invalid, the others run', async () => {
      const results = await runSeamModelMutants([byId('P5'), r1], {}, { failover: SYSTEMS.failover! });
      expect(results.map((r) => [r.id, r.verdict])).toEqual([
        ['P5', 'invalid'],
        ['R1', 'killed'],
      ]);
      expect(results[0]!.reason).toMatch(/no model layer for system pause/);
    });
  });
});
