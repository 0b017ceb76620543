/**
 * The replica-repair drill: a replica restarts in place while three clients run independently —
 * a replica-read client (the fallback's read offload: scaleReads 'slave'), the command client on
 * the primaries, and the subscription client. Judged: every read returns the value written (never
 * a nil or stale one from a resyncing replica), the replica serves reads again within the bound
 * (its connection was repaired), and neither other client noticed.
 */
import type { Cluster, Redis } from 'ioredis';
import { closeClient, nodeClient, waitReplicasInSync, type NodeInfo, type Topology } from '../../../../valkey/index.js';
import { keySlot } from '../../../../valkey/slots.js';
import { currentSlotMap, endpointKey } from '../../../../valkey/cluster-map.js';
import { judgeLedger, type Published } from '../pubsub/ledger.js';
import { ShardedSubscriber } from '../pubsub/subscriber.js';
import { sleep } from '../stats.js';
import { restartInPlace } from './restart.js';
import { replicaReader } from './replica-reader.js';

export interface ReplicaDrillResult {
  readonly replica: string;
  readonly backMs: number;
  /** Restart → the replica answered a read of the client again; null: not within the bound. */
  readonly repairMs: number | null;
  readonly reads: number;
  readonly readErrors: number;
  /** Reads that still failed more than a second after the replica was back. */
  readonly lateReadErrors: number;
  readonly wrongReads: string[];
  readonly commandErrors: string[];
  readonly commandMaxGapMs: number;
  readonly lostMessages: string[];
  readonly published: number;
}

/** Ten times the repair's refresh period (250 ms): a repaired connection is back well within it. */
export const REPAIR_BOUND_MS = 3_000;
const KEYS = 60;

async function getCalls(node: NodeInfo): Promise<number> {
  const c = nodeClient(node);
  try {
    return Number(/cmdstat_get:calls=(\d+)/.exec(await c.info('commandstats'))?.[1] ?? 0);
  } finally {
    await closeClient(c);
  }
}

/** The deliberately broken client: one READONLY connection to the replica, never re-established. */
async function pinnedReplica(replica: NodeInfo): Promise<Redis> {
  const c = nodeClient(replica);
  (c.options as { retryStrategy: () => null }).retryStrategy = () => null;
  await c.call('READONLY');
  return c;
}

/** repair: the replica reader with its repair; library-default: ioredis as it comes; pinned: broken. */
export type ReplicaClient = 'repair' | 'library-default' | 'pinned';

export async function replicaDrill(topology: Topology, opts: { client: ReplicaClient }): Promise<ReplicaDrillResult> {
  const map = await currentSlotMap(topology);
  const replica = topology.nodes.find((n) => n.role === 'replica')!;
  const admin = nodeClient(replica);
  const primaryOf = await admin.info('replication').then((i) => /master_port:(\d+)/.exec(i)?.[1] ?? '', async (err: unknown) => {
    await closeClient(admin);
    throw err;
  });
  await closeClient(admin);
  const writer = topology.client();
  const keys = Array.from({ length: 4 * KEYS }, (_, i) => `buzz:c1:presence:r${i}`).filter((k) => String(map.owner(keySlot(k)).port) === primaryOf).slice(0, KEYS);
  for (const k of keys) await writer.set(k, `v:${k}`);
  await waitReplicasInSync(topology);
  const reader: Cluster | Redis = opts.client === 'pinned' ? await pinnedReplica(replica) : replicaReader(topology, opts.client === 'repair');
  const topics = [`buzz:${primaryOf}:channel:a`, `buzz:${primaryOf}:channel:b`, 'buzz:c9:channel:x'];
  const sub = new ShardedSubscriber(topology, { resubscribe: true, followMoved: true });
  for (const t of topics) await sub.subscribe(t);
  const published: Published[] = [];
  const wrongReads: string[] = [];
  const commandErrors: string[] = [];
  let reads = 0;
  const readErrorAt: number[] = [];
  let lastCommand = Date.now();
  let commandMaxGap = 0;
  let running = true;
  let n = 0;
  const readLoop = (async () => {
    for (let i = 0; running; i++) {
      const k = keys[i % keys.length]!;
      try {
        const v = await reader.get(k);
        reads++;
        if (v !== `v:${k}`) wrongReads.push(`read ${reads} of ${k} returned ${JSON.stringify(v)}`);
      } catch {
        readErrorAt.push(performance.now());
        await sleep(20);
      }
      await sleep(3);
    }
  })();
  const commandLoop = (async () => {
    while (running) {
      try {
        const k = `buzz:c2:presence:w${n % 50}`;
        await writer.set(k, String(++n), 'EX', 60);
        const payload = `replica#${n}`;
        const t = topics[n % topics.length]!;
        const receivers = Number(await writer.spublish(t, payload));
        published.push({ topic: t, payload, receivers, phase: 'replica-restart', expectSubscribed: true });
        const now = Date.now();
        commandMaxGap = Math.max(commandMaxGap, now - lastCommand);
        lastCommand = now;
      } catch (err) {
        commandErrors.push((err as Error).message.split('\n')[0]!);
      }
      await sleep(10);
    }
  })();
  try {
    await sleep(300);
    const t0 = performance.now();
    const backMs = await restartInPlace(replica);
    const backAt = performance.now();
    let repairMs: number | null = null;
    // After a restart the replica's counters start at zero: any GET it serves is a repaired connection.
    while (performance.now() - t0 < REPAIR_BOUND_MS) {
      if ((await getCalls(replica).catch(() => 0)) > 0) {
        repairMs = Math.round(performance.now() - t0);
        break;
      }
      await sleep(50);
    }
    await sleep(300);
    running = false;
    await Promise.all([readLoop, commandLoop]);
    const t1 = performance.now();
    while (sub.deliveries.length < published.filter((p) => p.receivers >= 1).length && performance.now() - t1 < 1500) await sleep(20);
    const ledger = judgeLedger(published, sub.deliveries, new Set());
    return {
      replica: endpointKey(replica),
      backMs,
      repairMs,
      reads,
      readErrors: readErrorAt.length,
      lateReadErrors: readErrorAt.filter((t) => t > backAt + 1000).length,
      wrongReads,
      commandErrors,
      commandMaxGapMs: commandMaxGap,
      lostMessages: [...ledger.lost, ...ledger.unreachable, ...ledger.duplicates],
      published: published.length,
    };
  } finally {
    running = false;
    await sub.close();
    await closeClient(reader);
    await closeClient(writer);
  }
}
