import { median } from '../src/core/stats.js';
import type { BenchSection } from './section.js';
import { valkeyBenchmark } from './valkey-benchmark.js';
import { describeSpec, startTopology, type Topology, type TopologySpec } from '../src/valkey/index.js';
import { evalScript, luaScript, type LuaScript } from '../src/valkey/scripts/index.js';

/**
 * Foundation figures: time to start each topology (median of several starts), and script calls per
 * second on a standalone node — sequential (one in flight) and pipelined (DEPTH in flight) — beside
 * valkey-benchmark sending the same EVALSHA to the same node as the ceiling. Ratios within one run
 * are the figures to compare across machines; the absolute numbers depend on the load.
 */
const STARTS: readonly { spec: TopologySpec; runs: number }[] = [
  { spec: { kind: 'standalone' }, runs: 5 },
  { spec: { kind: 'cluster', shards: 1 }, runs: 3 },
  { spec: { kind: 'cluster', shards: 3 }, runs: 3 },
  { spec: { kind: 'cluster', shards: 3, replicasPerShard: 1 }, runs: 2 },
];
const WINDOW_MS = 2000;
const DEPTH = 64;
const KEY = 'bench:{c}:counter';

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function startTimes(print: (l: string) => void): Promise<void> {
  print('topology start (native; until cluster_state:ok, replicas caught up and every primary writable)');
  for (const { spec, runs } of STARTS) {
    const ms: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const t = await startTopology(spec, { provider: 'native' });
      ms.push(performance.now() - t0);
      await t.stop();
    }
    print(`  ${describeSpec(spec).padEnd(28)} median ${fmt(median(ms))} ms  (${runs} starts: ${ms.map(fmt).join(', ')})`);
  }
}

/** Calls per second for WINDOW_MS with `depth` calls in flight. */
async function ourRate(topo: Topology, script: LuaScript, depth: number): Promise<number> {
  const c = topo.client();
  try {
    await evalScript(c, script, [KEY], []); // loads it (NOSCRIPT → EVAL) outside the window
    let calls = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < WINDOW_MS) {
      const batch: Promise<unknown>[] = [];
      for (let i = 0; i < depth; i++) batch.push(evalScript(c, script, [KEY], []));
      await Promise.all(batch);
      calls += depth;
    }
    return calls / ((performance.now() - t0) / 1000);
  } finally {
    c.disconnect();
  }
}

/** valkey-benchmark's EVALSHA rate with one connection and `pipeline` requests in flight. */
function ceilingRate(topo: Topology, script: LuaScript, pipeline: number, requests: number): Promise<number> {
  return valkeyBenchmark(topo.nodes[0]!, pipeline, requests, ['EVALSHA', script.sha1, '1', KEY]);
}

async function callRates(print: (l: string) => void): Promise<void> {
  const script = luaScript('bench-incr', "return redis.call('INCR', KEYS[1])");
  const topo = await startTopology({ kind: 'standalone' }, { provider: 'native' });
  try {
    print(`script calls/s on standalone (evalScript via ioredis vs valkey-benchmark, 1 connection, ~${WINDOW_MS / 1000} s each)`);
    for (const depth of [1, DEPTH]) {
      const ours = await ourRate(topo, script, depth);
      const label = depth === 1 ? 'sequential' : 'pipelined ';
      // Size the ceiling run to take about as long as ours did.
      const ceiling = await ceilingRate(topo, script, depth, Math.max(depth === 1 ? 2000 : 20_000, Math.round(ours * 4))).catch((e: Error) => e);
      const beside =
        ceiling instanceof Error
          ? `valkey-benchmark not run: ${ceiling.message}`
          : `valkey-benchmark -P ${String(depth).padEnd(2)} ${fmt(ceiling).padStart(9)}/s   ratio ${(ours / ceiling).toFixed(2)}`;
      print(`  ${label}  ${fmt(ours).padStart(9)}/s   ${beside}${depth > 1 ? `  (${depth} in flight)` : ''}`);
    }
  } finally {
    await topo.stop();
  }
}

export const section: BenchSection = {
  name: 'foundation',
  title: 'foundation: Valkey topologies and script calls',
  async run(print) {
    await startTimes(print);
    await callRates(print);
  },
};
