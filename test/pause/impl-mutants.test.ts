// P1–P6 at the implementation layer, through the pause impl runner: each patch of
// mutants/pause/impl/ runs the model-driven walks on a real Valkey (after the unpatched code passed
// the same walks) and must be killed by its manifest entry's expected invariant, read on the real
// system by the ordinary checkers.
import { describe, expect, it } from 'vitest';
import { loadManifest, mutantsFor, type MutantEntry } from '../../src/core/manifest.js';
import { pauseImplRunner } from '../../src/systems/pause/impl-layer.js';
import { ownedTempDir, removeTempDir } from '../../src/core/temp-dir.js';
import { TRACE_DIR_ENV } from '../../src/core/trace-dir.js';

const implRunner = pauseImplRunner();
import { REAL_INVARIANTS } from '../../src/systems/pause/drive/index.js';

const EXPECTED: Readonly<Record<string, string>> = {
  P1: 'Inv_NoRevert',
  P2: 'Inv_OnlyCommitted',
  P3: 'Inv_ReconcileFresh',
  P4: 'Inv_FailClosed',
  P5: 'Inv_ReadyAfterSnapshot',
  P6: 'Inv_NoMissedEvent',
};

/** The manifest's pause entries with an impl patch; built here when the manifest does not list them yet. */
function entries(): MutantEntry[] {
  const listed = mutantsFor(loadManifest(), 'impl', 'pause').filter((m) => m.id in EXPECTED);
  if (listed.length === 6) return listed;
  return Object.entries(EXPECTED).map(([id, expectedInvariant]) => ({
    id,
    system: 'pause',
    target: id,
    kind: 'guard',
    description: id,
    realBug: id,
    expectedInvariant,
    layers: { impl: { patch: `mutants/pause/impl/${id}.ts` } },
  }));
}

describe('pause mutants at the impl layer (real Valkey, standalone)', () => {
  it('the unpatched code passes, then P1–P6 are each killed by the expected invariant', async () => {
    const list = entries();
    expect(list.map((e) => [e.id, e.expectedInvariant])).toEqual(Object.entries(EXPECTED));
    const lines: string[] = [];
    const results = await implRunner.run(list, { log: (l) => lines.push(l) });
    expect(lines.some((l) => /unpatched: \d+ walks, \d+ steps on real Valkey: no invariant broken$/.test(l))).toBe(true);
    for (const r of results) {
      expect({ id: r.id, verdict: r.verdict, violated: r.violated, reason: r.verdict === 'killed' ? '' : r.reason }).toEqual({ id: r.id, verdict: 'killed', violated: EXPECTED[r.id], reason: '' });
      expect(REAL_INVARIANTS as readonly string[]).toContain(r.violated);
      expect(r.reason).toMatch(/replay: fencecheck pause --topology standalone --seed \d+ --steps \d+ --walk \d+ --patch mutants\/pause\/impl\/P\d\.ts/);
      expect(r.traceLength).toBeGreaterThan(0);
    }
  });
});

describe('a patch the walks do not catch goes on to the tour (real Valkey)', () => {
  it('P7: the walks hold, the tour kills it by Inv_FailClosed, its counterexample saved with a replay line', async () => {
    const p7 = mutantsFor(loadManifest(), 'impl', 'pause').filter((m) => m.id === 'P7');
    expect(p7).toHaveLength(1);
    const lines: string[] = [];
    const runner = pauseImplRunner({ tourBounds: { replicas: ['r1'], maxCalls: 2, maxAge: 0 } });
    // The counterexample goes to a folder of the test's own, removed after it.
    const dir = ownedTempDir('pause-tour-traces');
    const before = process.env[TRACE_DIR_ENV];
    process.env[TRACE_DIR_ENV] = dir;
    let r;
    try {
      [r] = await runner.run(p7, { log: (l) => lines.push(l) });
    } finally {
      if (before === undefined) delete process.env[TRACE_DIR_ENV];
      else process.env[TRACE_DIR_ENV] = before;
      removeTempDir(dir);
    }
    expect(lines.some((l) => /\[impl P7\] the walks held/.test(l))).toBe(true);
    expect({ verdict: r!.verdict, violated: r!.violated }).toEqual({ verdict: 'killed', violated: 'Inv_FailClosed' });
    expect(r!.reason).toMatch(/the tour broke Inv_FailClosed after 5 attempts/);
    expect(r!.replay).toBe(`fencecheck trace replay ${dir}/conform-pause-P7-Inv_FailClosed.json`);
  });

  it('P12: the walks hold; the tour holds on its main pass, and its version-width pass across a power of ten kills it by Inv_ReconcileFresh', async () => {
    const p12 = mutantsFor(loadManifest(), 'impl', 'pause').filter((m) => m.id === 'P12');
    const small = { replicas: ['r1' as const], maxCalls: 2, maxAge: 0 };
    const dir = ownedTempDir('pause-tour-traces');
    const before = process.env[TRACE_DIR_ENV];
    process.env[TRACE_DIR_ENV] = dir;
    let r;
    try {
      [r] = await pauseImplRunner({ tourBounds: small, widthBounds: small }).run(p12, {});
    } finally {
      if (before === undefined) delete process.env[TRACE_DIR_ENV];
      else process.env[TRACE_DIR_ENV] = before;
      removeTempDir(dir);
    }
    expect({ verdict: r!.verdict, violated: r!.violated }).toEqual({ verdict: 'killed', violated: 'Inv_ReconcileFresh' });
    expect(r!.reason).toMatch(/the tour broke Inv_ReconcileFresh after \d+ attempts: in the version-width pass across a power of ten \(versions from 999999999\)/);
  });
});
