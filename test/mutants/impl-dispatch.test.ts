// The impl layer's dispatch by package: each system package's entries to its own runner (test doubles
// here: the real runners are exercised by their own tests on real Valkey).
import { describe, expect, it } from 'vitest';
import { implLayerRunner } from '../../src/mutants/layers/impl.js';
import { loadManifest, type MutantEntry } from '../../src/core/manifest.js';
import type { SystemImplRunner } from '../../src/seam/impl-runner.js';
import type { SystemPackage } from '../../src/seam/package.js';

const manifest = loadManifest();
const byId = (id: string): MutantEntry => manifest.mutants.find((m) => m.id === id)!;

/** A runner that kills every entry it gets (or reports `why` unavailable) and records what it was handed. */
function double(system: string, why: string | null = null, drop: readonly string[] = []) {
  const got: string[][] = [];
  const runner: SystemImplRunner = {
    system,
    unavailable: async () => why,
    run: async (mutants) => {
      got.push(mutants.map((m) => m.id));
      return mutants
        .filter((m) => !drop.includes(m.id))
        .map((m) => ({ id: m.id, layer: 'impl' as const, verdict: 'killed' as const, expectedInvariant: m.expectedInvariant, violated: m.expectedInvariant }));
    },
  };
  return { runner, got };
}

/** Packages whose runners are `runners` (an Error: the runner cannot be loaded; absent: no impl layer). */
function packages(runners: Record<string, SystemImplRunner | Error | undefined>) {
  const loads: string[] = [];
  const systemsOf: Record<string, string[]> = { fencing: ['fencing', 'failover'], pause: ['pause'], limiter: ['limiter'] };
  const list: SystemPackage[] = Object.entries(runners).map(([name, r]) => ({
    name,
    systems: systemsOf[name]!.map((s) => ({ name: s, title: s, expectedNames: async () => [] })),
    ...(r !== undefined && {
      impl: async () => {
        loads.push(name);
        if (r instanceof Error) throw r;
        return r;
      },
    }),
  }));
  const packageFor = (system: string) => list.find((p) => p.systems.some((s) => s.name === system));
  return { list, packageFor, loads };
}

describe('impl layer dispatch', () => {
  it('hands each package its own entries, once, and keeps the manifest order in the results', async () => {
    const fencing = double('fencing');
    const pause = double('pause');
    const p = packages({ fencing: fencing.runner, pause: pause.runner });
    const results = await implLayerRunner(p.list, p.packageFor).run(['P1', 'M1', 'R1', 'P6', 'M4'].map(byId), {});
    expect(results.map((r) => [r.id, r.verdict])).toEqual([
      ['P1', 'killed'],
      ['M1', 'killed'],
      ['R1', 'killed'],
      ['P6', 'killed'],
      ['M4', 'killed'],
    ]);
    // Fencing's package holds both of its models: the migration mutants and the failover one.
    expect({ fencing: fencing.got, pause: pause.got }).toEqual({ fencing: [['M1', 'R1', 'M4']], pause: [['P1', 'P6']] });
  });

  it("loads a package's runner only when one of its entries runs", async () => {
    const p = packages({ fencing: double('fencing').runner, pause: double('pause').runner });
    await implLayerRunner(p.list, p.packageFor).run([byId('P2')], {});
    expect(p.loads).toEqual(['pause']);
  });

  it('unavailable only when every runner is (the reasons joined); one runner down makes its own entries not-run', async () => {
    const down = (s: string) => double(s, `no valkey-server for ${s}`).runner;
    const all = packages({ fencing: down('fencing'), pause: down('pause') });
    expect(await implLayerRunner(all.list, all.packageFor).unavailable()).toBe('fencing: no valkey-server for fencing; pause: no valkey-server for pause');
    const p = packages({ fencing: double('fencing').runner, pause: down('pause') });
    const layer = implLayerRunner(p.list, p.packageFor);
    expect(await layer.unavailable()).toBeNull();
    const results = await layer.run([byId('M1'), byId('P3'), byId('R1')], {});
    expect(results.map((r) => [r.id, r.verdict, r.reason])).toEqual([
      ['M1', 'killed', undefined],
      ['P3', 'not-run', 'no valkey-server for pause'],
      ['R1', 'killed', undefined],
    ]);
  });

  it('a runner that cannot be loaded, or leaves an entry out, makes those entries invalid, never passed', async () => {
    const p = packages({ pause: new Error('Cannot find module src/systems/pause/impl-layer.js'), fencing: double('fencing', null, ['R1']).runner });
    const layer = implLayerRunner(p.list, p.packageFor);
    const results = await layer.run([byId('P1'), byId('R1'), byId('M2')], {});
    expect(results.map((r) => [r.id, r.verdict])).toEqual([
      ['P1', 'invalid'],
      ['R1', 'invalid'],
      ['M2', 'killed'],
    ]);
    expect(results[0]!.reason).toBe('cannot load the pause impl runner: Cannot find module src/systems/pause/impl-layer.js');
    expect(results[1]!.reason).toBe('the failover impl runner reported no result for R1');
    // The unloadable runner counts as unavailable, the others are not: the layer still runs.
    expect(await layer.unavailable()).toBeNull();
  });

  it('an entry of a package with no impl layer, or of no package, is invalid', async () => {
    const p = packages({ fencing: undefined });
    const results = await implLayerRunner(p.list, p.packageFor).run([byId('R1'), byId('P1')], {});
    expect(results).toEqual([
      expect.objectContaining({ id: 'R1', verdict: 'invalid', reason: 'fencing has no implementation layer' }),
      expect.objectContaining({ id: 'P1', verdict: 'invalid', reason: 'no system package holds pause' }),
    ]);
  });
});
