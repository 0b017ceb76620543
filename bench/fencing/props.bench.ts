import type { BenchSection } from '../section.js';
import { closeClient, startTopology, ValkeyUnavailableError } from '../../src/valkey/index.js';
import { evalScript } from '../../src/valkey/scripts/index.js';
import { loadFencingScripts } from '../../src/systems/fencing/scripts.js';
import { sessionKeys } from '../../src/systems/fencing/keys.js';
import { runFencingSuite } from '../../properties/fencing/suite.js';
import type { PropsTopology } from '../../properties/fencing/env.js';

/**
 * Model-based commands per second (each: the real script or gate step, the model's prediction, the
 * keyspace read back, invariants, read-side scripts) beside the raw ceiling of the same Valkey: one
 * fencing script called back to back on one connection (the foundation section has the general one).
 */
const WINDOW_MS = 2000;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function rawCeiling(kind: 'standalone' | 'cluster'): Promise<number> {
  const topo = await startTopology(kind === 'standalone' ? { kind: 'standalone' } : { kind: 'cluster', shards: 3 });
  const conn = topo.client();
  try {
    const script = loadFencingScripts().get('C/known_generation');
    const key = [sessionKeys({ community: 'bench', session: 's' }).newGen];
    await evalScript(conn, script, key, []);
    let n = 0;
    const end = Date.now() + WINDOW_MS;
    while (Date.now() < end) {
      await evalScript(conn, script, key, []);
      n++;
    }
    return (n * 1000) / WINDOW_MS;
  } finally {
    await closeClient(conn);
    await topo.stop();
  }
}

async function modelBased(topology: PropsTopology, runs: number) {
  const r = await runFencingSuite({ topology, runs, doorRuns: 0, maxCommands: 60, seed: 2026 });
  const p = r.phases[0]!.result;
  return {
    rate: (p.commands * 1000) / p.durationMs,
    commands: p.commands,
    crossings: p.doorCrossings,
    cluster: p.clusterCommands,
    clusterRate: p.clusterMs > 0 ? (p.clusterCommands * 1000) / p.clusterMs : 0,
  };
}

export const section: BenchSection = {
  name: 'props',
  title: 'fencing model-based runs (properties/fencing) vs raw script calls',
  async run(print) {
    try {
      const sa = await modelBased('standalone', 200);
      print(`  model-based, standalone            ${fmt(sa.rate).padStart(7)} commands/s  (${sa.commands} commands, 200 runs)`);
      const door = await modelBased('door', 60);
      print(
        `  model-based, on the cluster        ${fmt(door.clusterRate).padStart(7)} commands/s  (${door.cluster} commands after ${door.crossings} door crossings; 1 shard, then 3 with a live reshard)`,
      );
      print(`  door runs end to end               ${fmt(door.rate).padStart(7)} commands/s  (${door.commands} commands, 60 runs, incl. carrying the keyspace and resharding)`);
      print(`  raw C/known_generation, standalone ${fmt(await rawCeiling('standalone')).padStart(7)} calls/s    (1 connection, back to back)`);
      print(`  raw C/known_generation, 3 shards   ${fmt(await rawCeiling('cluster')).padStart(7)} calls/s    (1 connection, back to back)`);
    } catch (err) {
      if (err instanceof ValkeyUnavailableError) print(`  not run: ${err.message}`);
      else throw err;
    }
  },
};
