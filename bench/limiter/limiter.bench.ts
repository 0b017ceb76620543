import type { BenchSection } from '../section.js';
import { valkeyBenchmark } from '../valkey-benchmark.js';
import { startTopology, closeClient, describeSpec, nodeClient, type Topology } from '../../src/valkey/index.js';
import { CommandCounter } from '../../src/valkey/command-stats.js';
import { evalScript, luaScript } from '../../src/valkey/scripts/index.js';
import { bucketSpec, Limiter, orderedLimiterScript, type Request } from '../../src/systems/limiter/index.js';

/**
 * Limiter decisions per second on a standalone node and a 3-shard cluster: one client sequential (one decision in
 * flight), one client with concurrent callers (pipelined on its connection), and four clients —
 * beside the raw script-call ceilings: a trivial script (`return 1`) through the same evalScript,
 * and valkey-benchmark sending the limiter's own EVALSHA (server-side ceiling, no client work).
 * Figures depend on machine load; compare ratios within one run. Then the design's headline figure,
 * counted by the servers: client commands (round trips) per warm decision, and per cold one.
 */
const WINDOW_MS = 2000;
const CALLERS = 64;
const CHANNELS = 100;
const FIRST = bucketSpec({ capacity: 100, refillPerSecond: 1000, idleTtlMs: 60_000 });
const SECOND = bucketSpec({ capacity: 1000, refillPerSecond: 10_000, idleTtlMs: 60_000 });
const pair = (i: number): [Request, Request] => [
  { key: `bench:{chan:${i % CHANNELS}}:standard`, spec: FIRST },
  { key: `bench:{chan:${i % CHANNELS}}:shared`, spec: SECOND },
];
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** Runs `callers` async loops of `op` for WINDOW_MS; returns completed operations per second. */
async function rate(callers: number, op: (i: number) => Promise<unknown>): Promise<number> {
  let done = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: callers }, async (_, c) => {
      for (let i = c; performance.now() - t0 < WINDOW_MS; i += callers) {
        await op(i);
        done++;
      }
    }),
  );
  return done / ((performance.now() - t0) / 1000);
}

async function measure(topo: Topology, print: (l: string) => void): Promise<void> {
  const clients = Array.from({ length: 4 }, () => topo.client());
  try {
    const limiters = clients.map((c) => new Limiter(c));
    const one = limiters[0]!;
    const trivial = luaScript('bench-trivial', 'return 1');
    await evalScript(clients[0]!, trivial, [], []);
    await one.allowOrdered(...pair(0)); // loads the limiter script outside the windows

    print(`${describeSpec(topo.spec)}: decisions/s (two-bucket allowOrdered, ${CHANNELS} channel pairs, ~${WINDOW_MS / 1000} s each) beside the raw script-call ceiling`);
    const seq = await rate(1, (i) => one.allowOrdered(...pair(i)));
    const seqRaw = await rate(1, () => evalScript(clients[0]!, trivial, [], []));
    print(`  one client, sequential        ${fmt(seq).padStart(9)}/s   trivial script ${fmt(seqRaw).padStart(9)}/s   ratio ${(seq / seqRaw).toFixed(2)}`);
    const conc = await rate(CALLERS, (i) => one.allowOrdered(...pair(i)));
    const concRaw = await rate(CALLERS, () => evalScript(clients[0]!, trivial, [], []));
    print(`  one client, ${CALLERS} callers        ${fmt(conc).padStart(9)}/s   trivial script ${fmt(concRaw).padStart(9)}/s   ratio ${(conc / concRaw).toFixed(2)}`);
    const four = await rate(CALLERS, (i) => limiters[i % 4]!.allowOrdered(...pair(i)));
    print(`  4 clients, ${CALLERS} callers         ${fmt(four).padStart(9)}/s`);
    // valkey-benchmark talks to one node; it needs the scripts cached (round trips flush them, so they come last).
    if (topo.spec.kind === 'standalone') await ceilings(topo, seq, seqRaw, conc, trivial.sha1, print);
    await roundTrips(topo, one, print);
  } finally {
    await Promise.all(clients.map(closeClient));
  }
}

/** valkey-benchmark sending the limiter's own EVALSHA and a trivial one to the standalone node. */
async function ceilings(topo: Topology, seq: number, seqRaw: number, conc: number, trivialSha: string, print: (l: string) => void): Promise<void> {
  const node = topo.nodes[0]!;
  const [a, b] = pair(0);
  const cmd = ['EVALSHA', orderedLimiterScript().sha1, '2', a.key, b.key, ...a.spec.args, ...b.spec.args];
  const ceil1 = await valkeyBenchmark(node, 1, Math.max(2000, Math.round(seq * 3)), cmd);
  const ceilP = await valkeyBenchmark(node, CALLERS, Math.max(20_000, Math.round(conc * 3)), cmd);
  const triv1 = await valkeyBenchmark(node, 1, Math.max(2000, Math.round(seqRaw * 3)), ['EVALSHA', trivialSha, '0']);
  print(`  valkey-benchmark limiter EVALSHA -P 1  ${fmt(ceil1).padStart(9)}/s  (sequential ceiling; ours ${(seq / ceil1).toFixed(2)} of it)`);
  print(`  valkey-benchmark limiter EVALSHA -P ${CALLERS} ${fmt(ceilP).padStart(9)}/s  (server-side ceiling; ours ${(conc / ceilP).toFixed(2)} of it)`);
  print(`  valkey-benchmark trivial EVALSHA -P 1  ${fmt(triv1).padStart(9)}/s`);
}

const ROUND_TRIP_DECISIONS = 2000;

const perDecision = (m: ReadonlyMap<string, number>, n: number) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${(v / n).toFixed(2)}`)
    .join(', ') || 'none';

/**
 * The design: "one Valkey write round trip" per warm decision. Counted by the servers: INFO
 * commandstats (calls per command) and MONITOR (who sent each: the client, or the script inside),
 * over sequential decisions on a warm client; then one decision after SCRIPT FLUSH.
 */
async function roundTrips(topo: Topology, limiter: Limiter, print: (l: string) => void): Promise<void> {
  const counter = await CommandCounter.open(topo.nodes);
  try {
    const before = await counter.read();
    for (let i = 0; i < ROUND_TRIP_DECISIONS; i++) await limiter.allowOrdered(...pair(i));
    const warm = counter.between(before, await counter.read());
    const n = ROUND_TRIP_DECISIONS;
    const evalsha = warm.clientSent.get('evalsha') ?? 0;
    const other = warm.clientCommands - evalsha - (warm.clientSent.get('eval') ?? 0);
    print(`  round trips, counted by the server (INFO commandstats; MONITOR: who sent each), ${fmt(n)} warm sequential decisions:`);
    print(
      `    client commands per decision ${(warm.clientCommands / n).toFixed(3)} (EVALSHA ${fmt(evalsha)}, EVAL ${fmt(warm.clientSent.get('eval') ?? 0)}, other ${fmt(other)}; commandstats EVALSHA calls ${fmt(warm.calls.get('evalsha') ?? 0)}) — the design: one round trip per warm decision`,
    );
    print(`    run inside the script, per decision: ${perDecision(warm.scriptRan, n)}`);
    for (const node of topo.nodes) {
      const admin = nodeClient(node);
      try {
        await admin.call('SCRIPT', 'FLUSH');
      } finally {
        await closeClient(admin);
      }
    }
    const b2 = await counter.read();
    await limiter.allowOrdered(...pair(0));
    const cold = counter.between(b2, await counter.read());
    print(`    cold (script cache flushed), one decision: ${cold.clientCommands} client commands (${perDecision(cold.clientSent, 1)}: EVALSHA answered NOSCRIPT, then EVAL)`);
  } finally {
    await counter.close();
  }
}

export const section: BenchSection = {
  name: 'limiter',
  title: 'limiter: ordered two-bucket decisions per second',
  async run(print) {
    for (const spec of [{ kind: 'standalone' }, { kind: 'cluster', shards: 3 }] as const) {
      const topo = await startTopology(spec, { provider: 'native' });
      try {
        await measure(topo, print);
      } finally {
        await topo.stop();
      }
    }
  },
};
