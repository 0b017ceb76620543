import { Cluster } from 'ioredis';
import type { BenchSection } from '../section.js';
import { startTopology, closeClient, describeSpec, type Topology, type ValkeyClient } from '../../src/valkey/index.js';
import { keySlot } from '../../src/valkey/slots.js';
import { sessionKeys, type SessionRef } from '../../src/systems/fencing/keys.js';
import { loadFencingScripts } from '../../src/systems/fencing/scripts.js';
import { discoverSessions, observeKeyspace } from '../../src/systems/fencing/gate/observe.js';

/**
 * The deployment gate's keyspace read at production size, on the 3-shard cluster the harness
 * starts: 100k and 1M sessions (both counters of every session; a live old-keyspace lease on every
 * second session and a live new-keyspace lease on every third, each with a TTL), written with
 * pipelined SET per node. Prints sessions/s of SCAN discovery and of the census + counters read
 * (observeKeyspace, pipelined per node), beside the one-session-at-a-time path (four round trips
 * per session, what `gate` did before) on a sample. Information, not an assertion; the target is
 * 1M sessions in under 30 s on this machine. FENCECHECK_BENCH_GATE_SIZES=100000 picks other sizes.
 */
const SIZES = (process.env.FENCECHECK_BENCH_GATE_SIZES ?? '100000,1000000').split(',').map(Number);
const WRITE_BATCH = 5000;
const SAMPLE = 5000;
const TTL_MS = 3_600_000;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const session = (i: number): SessionRef => ({ community: 'bench', session: `s${i}` });

/** SET in pipelines, one per owning primary (a Cluster pipeline must stay on one node). */
async function writeSessions(conn: ValkeyClient, n: number): Promise<void> {
  const slots = conn instanceof Cluster ? (conn.slots as unknown as readonly (readonly string[] | undefined)[]) : [];
  for (let at = 0; at < n; at += WRITE_BATCH) {
    const byNode = new Map<string, [string, string, boolean][]>();
    for (let i = at; i < Math.min(n, at + WRITE_BATCH); i++) {
      const k = sessionKeys(session(i));
      const sets: [string, string, boolean][] = [
        [k.oldGen, String(3 + (i % 5)), false],
        [k.newGen, String(2 + (i % 7)), false],
      ];
      if (i % 2 === 0) sets.push([k.oldLease, `p1:${3 + (i % 5)}`, true]);
      if (i % 3 === 0) sets.push([k.newLease, `p2:${2 + (i % 7)}`, true]);
      for (const s of sets) {
        const node = conn instanceof Cluster ? (slots[keySlot(s[0])]?.[0] ?? '?') : '';
        const list = byNode.get(node);
        if (list) list.push(s);
        else byNode.set(node, [s]);
      }
    }
    await Promise.all(
      [...byNode.values()].map(async (sets) => {
        const p = conn.pipeline();
        for (const [key, value, ttl] of sets) {
          if (ttl) p.set(key, value, 'PX', TTL_MS);
          else p.set(key, value);
        }
        for (const [err] of (await p.exec()) ?? []) if (err) throw err;
      }),
    );
  }
}

async function measure(topo: Topology, n: number, print: (l: string) => void): Promise<void> {
  const conn = topo.client();
  try {
    await conn.ping();
    const scripts = loadFencingScripts();
    const w0 = performance.now();
    await writeSessions(conn, n);
    const writeS = (performance.now() - w0) / 1000;
    const s0 = performance.now();
    const found = await discoverSessions(conn);
    const scanS = (performance.now() - s0) / 1000;
    const c0 = performance.now();
    const ks = await observeKeyspace(conn, scripts, found);
    const censusS = (performance.now() - c0) / 1000;
    const expectOld = Math.ceil(n / 2);
    const expectNew = Math.ceil(n / 3);
    const ok = found.length === n && ks.oldLeaseCensus === expectOld && ks.newLeaseCensus === expectNew && ks.counters.length === n;
    const sample = Math.min(SAMPLE, n);
    const o0 = performance.now();
    for (let i = 0; i < sample; i++) await observeKeyspace(conn, scripts, [session(i)]);
    const oneS = (performance.now() - o0) / 1000;
    const rss = process.memoryUsage().rss / 2 ** 20;
    print(`  ${fmt(n).padStart(9)} sessions  written ${writeS.toFixed(1)} s (pipelined SET)`);
    print(`    discovery (SCAN)            ${scanS.toFixed(1).padStart(6)} s  ${fmt(n / scanS).padStart(10)} sessions/s`);
    print(
      `    census + counters, batched  ${censusS.toFixed(1).padStart(6)} s  ${fmt(n / censusS).padStart(10)} sessions/s  (census old ${fmt(ks.oldLeaseCensus)} new ${fmt(ks.newLeaseCensus)}: ${ok ? 'as written' : `WRONG, expected ${fmt(expectOld)}/${fmt(expectNew)} of ${fmt(n)}`})`,
    );
    print(`    one session at a time       ${fmt(sample / oneS).padStart(17)} sessions/s  (4 round trips each, ${fmt(sample)} sampled; ${(n / (sample / oneS) / 60).toFixed(1)} min for all)`);
    print(`    gate read total             ${(scanS + censusS).toFixed(1).padStart(6)} s  (target for 1M: < 30 s)  harness RSS ${fmt(rss)} MiB`);
  } finally {
    await closeClient(conn);
  }
}

export const section: BenchSection = {
  name: 'gate',
  title: 'gate: keyspace census and counters read per second, 100k and 1M sessions',
  async run(print) {
    const topo = await startTopology({ kind: 'cluster', shards: 3 }, { provider: 'native' });
    try {
      print(`${describeSpec(topo.spec)}: sessions/s of the gate's keyspace read (observeKeyspace, pipelined per node)`);
      for (const n of SIZES) {
        await topo.flush();
        await measure(topo, n, print);
      }
      await topo.flush();
    } finally {
      await topo.stop();
    }
  },
};
