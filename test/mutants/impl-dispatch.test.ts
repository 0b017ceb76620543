// The impl layer's dispatch by system: fencing to its tour, the seam systems to their runners (test doubles here:
// the real runners are exercised by their own tests on real Valkey).
import { describe, expect, it } from 'vitest';
import { implLayerRunner, type SystemImplRunners } from '../../src/mutants/layers/impl.js';
import { loadManifest, type MutantEntry } from '../../src/core/manifest.js';
import type { SystemImplRunner } from '../../src/seam/impl-runner.js';

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
      return mutants.filter((m) => !drop.includes(m.id)).map((m) => ({ id: m.id, layer: 'impl' as const, verdict: 'killed' as const, expectedInvariant: m.expectedInvariant, violated: m.expectedInvariant }));
    },
  };
  return { runner, got };
}

function systems(runners: Record<string, SystemImplRunner | Error>): { table: SystemImplRunners; loads: string[] } {
  const loads: string[] = [];
  const table = Object.fromEntries(
    Object.entries(runners).map(([name, r]) => [name, async () => {
      loads.push(name);
      if (r instanceof Error) throw r;
      return { implRunner: r };
    }]),
  );
  return { table, loads };
}

describe('impl layer dispatch', () => {
  it('hands each system its own entries, once, and keeps the manifest order in the results', async () => {
    const fencing = double('fencing');
    const pause = double('pause');
    const failover = double('failover');
    const { table } = systems({ pause: pause.runner, failover: failover.runner });
    const results = await implLayerRunner(table, fencing.runner).run(['P1', 'M1', 'R1', 'P6', 'M4'].map(byId), {});
    expect(results.map((r) => [r.id, r.verdict])).toEqual([['P1', 'killed'], ['M1', 'killed'], ['R1', 'killed'], ['P6', 'killed'], ['M4', 'killed']]);
    expect({ fencing: fencing.got, pause: pause.got, failover: failover.got }).toEqual({ fencing: [['M1', 'M4']], pause: [['P1', 'P6']], failover: [['R1']] });
  });

  it('loads a system\'s runner only when one of its entries runs', async () => {
    const { table, loads } = systems({ pause: double('pause').runner, failover: double('failover').runner });
    await implLayerRunner(table, double('fencing').runner).run([byId('P2')], {});
    expect(loads).toEqual(['pause']);
  });

  it('unavailable only when every runner is (the reasons joined); one runner down makes its own entries not-run', async () => {
    const down = (s: string) => double(s, `no valkey-server for ${s}`).runner;
    expect(await implLayerRunner(systems({ pause: down('pause'), failover: down('failover') }).table, down('fencing')).unavailable()).toBe(
      'fencing: no valkey-server for fencing; pause: no valkey-server for pause; failover: no valkey-server for replication',
    );
    const layer = implLayerRunner(systems({ pause: down('pause'), failover: double('failover').runner }).table, double('fencing').runner);
    expect(await layer.unavailable()).toBeNull();
    const results = await layer.run([byId('M1'), byId('P3'), byId('R1')], {});
    expect(results.map((r) => [r.id, r.verdict, r.reason])).toEqual([['M1', 'killed', undefined], ['P3', 'not-run', 'no valkey-server for pause'], ['R1', 'killed', undefined]]);
  });

  it('a runner that cannot be loaded, or leaves an entry out, makes those entries invalid, never passed', async () => {
    const { table } = systems({ pause: new Error('Cannot find module src/systems/pause/impl-layer.js'), failover: double('failover', null, ['R1']).runner });
    const layer = implLayerRunner(table, double('fencing').runner);
    const results = await layer.run([byId('P1'), byId('R1'), byId('M2')], {});
    expect(results.map((r) => [r.id, r.verdict])).toEqual([['P1', 'invalid'], ['R1', 'invalid'], ['M2', 'killed']]);
    expect(results[0]!.reason).toBe('cannot load the pause impl runner: Cannot find module src/systems/pause/impl-layer.js');
    expect(results[1]!.reason).toBe('the replication impl runner reported no result for R1');
    // The unloadable runner counts as unavailable, the others are not: the layer still runs.
    expect(await layer.unavailable()).toBeNull();
  });

  it('an entry of a system with no impl runner is invalid', async () => {
    const results = await implLayerRunner({}, double('fencing').runner).run([byId('R1')], {});
    expect(results).toEqual([expect.objectContaining({ id: 'R1', verdict: 'invalid', reason: 'no impl runner for system replication' })]);
  });
});
