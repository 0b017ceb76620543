/**
 * The failover remedy at the implementation layer: the manifest's R1 (the remedy Acquire_WaitReplica
 * dropped) through the replication impl runner, on a real 3×1 cluster of native valkey-servers. The
 * drill with the remedy as it ships passes first; R1's patch, through the same drill and the same
 * checks, is killed by Inv_Monotonic (a generation told "applied" not above an earlier one of its
 * session: issued again by the promoted replica). Entries the runner cannot apply are invalid
 * without a drill. The checks' spec names are pinned on hand-made call records.
 */
import { describe, expect, it } from 'vitest';
import { loadManifest, type MutantEntry } from '../../src/core/manifest.js';
import { failoverAvailable, runFailoverEntries } from '../../src/systems/fencing/failover/impl-layer.js';
import { brokenChecks, monotonicBreaks } from '../../src/systems/fencing/failover/checks.js';
import type { CallRecord } from '../../src/systems/fencing/cluster-matrix/drills/outcomes.js';

const acquired = (session: string, owner: string, gen: number): CallRecord => ({ session, op: 'acquire', owner, outcome: 'applied', reply: { kind: 'ok', gen }, startedAt: 0, endedAt: 0 });

describe('the drill checks, by the spec names', () => {
  it('Inv_Monotonic compares every acquire of a session with every earlier one, whichever pod made it', () => {
    // The failover lost generation 3's INCR and more: p3 and p4 are told 2 and 3 again. Each pod
    // acquired once, so only the session-wide comparison (the spec's lastAcked) sees it.
    const gens = [1, 2, 3, 2, 3, 4];
    const calls = gens.map((g, i) => acquired('s0', `p${i}`, g));
    expect(monotonicBreaks(calls)).toBe(2);
    expect(monotonicBreaks([acquired('s0', 'p0', 1), acquired('s0', 'p1', 2), acquired('s0', 'p2', 5)])).toBe(0);
  });

  it('maps the findings: T2 → Inv_Monotonic, a released lease back → Inv_SingleAuthority, a wrong outcome → Outcome_Truthful', () => {
    expect(brokenChecks({ monotonicBreaks: 0, releasedLeasesBack: 0, findings: [] })).toEqual([]);
    expect(brokenChecks({ monotonicBreaks: 0, releasedLeasesBack: 0, findings: ['s1: generation 4 issued twice (call 9)'] })).toEqual(['Inv_Monotonic']);
    expect(brokenChecks({ monotonicBreaks: 2, releasedLeasesBack: 0, findings: [] })).toEqual(['Inv_Monotonic']);
    expect(brokenChecks({ monotonicBreaks: 0, releasedLeasesBack: 1, findings: [] })).toEqual(['Inv_SingleAuthority']);
    expect(brokenChecks({ monotonicBreaks: 3, releasedLeasesBack: 1, findings: ['s1: the final keyspace {} is not explained by the reported outcomes'] })).toEqual([
      'Inv_Monotonic',
      'Inv_SingleAuthority',
      'Outcome_Truthful',
    ]);
  });
});

it('R1 is killed by Inv_Monotonic on the real replicated topology, after the shipped remedy passed the same drill', async () => {
  expect(await failoverAvailable()).toBeNull();
  const r1 = loadManifest().mutants.find((m) => m.id === 'R1');
  expect(r1, 'R1 in mutants/manifest.json').toBeDefined();
  const broken: MutantEntry[] = [
    // An ImplPatch of the fencing layer, not a FailoverPatch: invalid, no drill run for it.
    { ...r1!, id: 'Rx-wrong-patch', layers: { impl: { patch: 'mutants/fencing/impl/M1.ts' } } },
    { ...r1!, id: 'Rx-unknown-invariant', expectedInvariant: 'Inv_Nope' },
  ];
  const lines: string[] = [];
  const t0 = Date.now();
  const results = await runFailoverEntries([r1!, ...broken], { log: (l) => lines.push(l) });
  const log = lines.join('\n');
  expect(log).toMatch(/unpatched: every check held: .* 0 generation\(s\) issued twice/);
  expect(results.map((r) => r.id)).toEqual(['R1', 'Rx-wrong-patch', 'Rx-unknown-invariant']);
  const [kill, wrongPatch, unknownInv] = results;
  expect(kill, JSON.stringify(kill) + '\n' + log).toMatchObject({ layer: 'impl', verdict: 'killed', violated: 'Inv_Monotonic', expectedInvariant: 'Inv_Monotonic' });
  // The drill's own T2 check fired, not only the judge's duplicate finding.
  expect(kill!.reason).toMatch(/[1-9]\d* acquire\(s\) told a generation not above an earlier one, [1-9]\d* generation\(s\) issued twice/);
  expect(wrongPatch).toMatchObject({ verdict: 'invalid', reason: expect.stringMatching(/default-exports no FailoverPatch/) });
  expect(unknownInv).toMatchObject({ verdict: 'invalid', reason: expect.stringMatching(/not Inv_Nope/) });
  console.log(`[impl-mutants] R1 killed in ${kill!.durationMs} ms; run ${Date.now() - t0} ms; ${kill!.reason}`);
}, 60_000);
