import type { Redis } from 'ioredis';
import { SLOT_COUNT, keySlot } from './slots.js';
import { closeClient, nodeClient } from './client.js';
import type { LaunchedNode } from './node-args.js';
import { waitUntil } from './wait.js';

const FORM_TIMEOUT_MS = 30_000;

export interface ShardPlan {
  readonly primary: LaunchedNode;
  readonly replicas: readonly LaunchedNode[];
}

/** Slot ranges [start, end] for `shards` primaries, as even as possible. */
export function slotRanges(shards: number): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < shards; i++) {
    out.push([Math.floor((i * SLOT_COUNT) / shards), Math.floor(((i + 1) * SLOT_COUNT) / shards) - 1]);
  }
  return out;
}

/**
 * Turns freshly started cluster-enabled nodes into a cluster: slots split over the primaries, every
 * node met, replicas attached and caught up, `cluster_state:ok` on every node and each primary
 * accepting a write (a cluster-enabled primary refuses writes for ≈2 s after it starts).
 */
export async function formCluster(shards: readonly ShardPlan[]): Promise<void> {
  const all = shards.flatMap((s) => [s.primary, ...s.replicas]);
  const clients = new Map(all.map((n) => [n, nodeClient(n)] as const));
  const c = (n: LaunchedNode) => clients.get(n)!;
  try {
    const ranges = slotRanges(shards.length);
    await Promise.all(shards.map((s, i) => c(s.primary).call('CLUSTER', 'ADDSLOTSRANGE', ranges[i]![0], ranges[i]![1])));
    const first = all[0]!;
    await Promise.all(all.slice(1).map((n) => c(n).call('CLUSTER', 'MEET', first.host, first.port, ...(first.busPort !== undefined ? [first.busPort] : []))));
    if (all.length > 1) {
      await waitUntil(
        'every node to know every other node',
        async () => {
          for (const n of all) {
            const lines = String(await c(n).call('CLUSTER', 'NODES'))
              .trim()
              .split('\n');
            if (lines.length !== all.length || lines.some((l) => /handshake|noaddr/.test(l))) return false;
          }
          return true;
        },
        FORM_TIMEOUT_MS,
      );
    }
    const ids = new Map<LaunchedNode, string>();
    for (const n of all) ids.set(n, String(await c(n).call('CLUSTER', 'MYID')));
    for (const s of shards) {
      for (const r of s.replicas) await c(r).call('CLUSTER', 'REPLICATE', ids.get(s.primary)!);
    }
    await waitUntil(
      'cluster_state:ok and the same view on every node',
      async () => {
        for (const n of all) {
          if (!/cluster_state:ok/.test(String(await c(n).call('CLUSTER', 'INFO')))) return false;
          const nodes = String(await c(n).call('CLUSTER', 'NODES'));
          for (const s of shards) {
            for (const r of s.replicas) {
              const line = nodes.split('\n').find((l) => l.startsWith(ids.get(r)!));
              if (!line?.includes(`slave ${ids.get(s.primary)!}`)) return false;
            }
          }
        }
        return true;
      },
      FORM_TIMEOUT_MS,
    );
    if (all.length > 1) {
      await waitUntil(
        'a two-way, answered cluster-bus link between every pair of nodes',
        async () => {
          for (const n of all) {
            const others = all.filter((o) => o !== n).map((o) => ids.get(o)!);
            if (!busLinksUp(await c(n).call('CLUSTER', 'LINKS'), String(await c(n).call('CLUSTER', 'NODES')), others)) return false;
          }
          return true;
        },
        FORM_TIMEOUT_MS,
      );
    }
    await Promise.all(shards.map((s, i) => waitWritable(c(s.primary), ranges[i]!)));
    await Promise.all(shards.map((s) => waitReplicasCaughtUp(c(s.primary), s.replicas.length)));
  } finally {
    await Promise.all([...clients.values()].map(closeClient));
  }
}

/**
 * From one node's CLUSTER LINKS and CLUSTER NODES: it has an outbound ("to") and an inbound ("from")
 * link with every node of `others`, and each outbound link has been answered (a PONG received since
 * the link was created). Until then Valkey 8 may lose a PUBLISH: it propagates pub/sub with a
 * light-weight header, and a receiver that gets one as the first message of an inbound link it has
 * not yet tied to a node closes the link and drops the message (valkey-io/valkey#2817). A fresh
 * cluster's first PUBLISH then silently misses subscribers on some node.
 */
export function busLinksUp(linksReply: unknown, nodesText: string, others: readonly string[]): boolean {
  const links = (Array.isArray(linksReply) ? linksReply : []).map((l) => {
    const f = Array.isArray(l) ? (l as unknown[]) : [];
    const field = (k: string) => f[f.indexOf(k) + 1];
    return { direction: String(field('direction')), node: String(field('node')), created: Number(field('create-time')) };
  });
  const pongAt = new Map(
    nodesText
      .trim()
      .split('\n')
      .map((l) => l.split(' '))
      .map((w) => [w[0]!, Number(w[5])] as const),
  );
  return others.every((id) => {
    const to = links.find((l) => l.direction === 'to' && l.node === id);
    const from = links.some((l) => l.direction === 'from' && l.node === id);
    return to !== undefined && from && (pongAt.get(id) ?? 0) >= to.created;
  });
}

/** A key whose slot lies in [lo, hi], for probing one shard directly. */
export function keyInRange([lo, hi]: [number, number]): string {
  for (let i = 0; ; i++) {
    const k = `fencecheck:ready:${i}`;
    const slot = keySlot(k);
    if (slot >= lo && slot <= hi) return k;
  }
}

async function waitWritable(primary: Redis, range: [number, number]): Promise<void> {
  const key = keyInRange(range);
  await waitUntil('the primary to accept writes', async () => (await primary.set(key, '1', 'PX', 1000)) === 'OK', FORM_TIMEOUT_MS);
  await primary.del(key);
}

/** Every replica online and at the primary's offset: writes acknowledged now survive a failover. */
async function waitReplicasCaughtUp(primary: Redis, replicas: number): Promise<void> {
  if (replicas === 0) return;
  await waitUntil(`${replicas} replica(s) online and caught up`, async () => replicasInSync(await primary.info('replication'), replicas), FORM_TIMEOUT_MS);
}

/**
 * From a primary's INFO replication: every replica online at the primary's offset (and, when
 * `expected` is given, exactly that many replicas).
 */
export function replicasInSync(info: string, expected?: number): boolean {
  const offset = Number(/master_repl_offset:(\d+)/.exec(info)?.[1] ?? NaN);
  const slaves = [...info.matchAll(/slave\d+:.*state=(\w+),offset=(\d+)/g)];
  if (expected !== undefined && slaves.length !== expected) return false;
  return slaves.every((m) => m[1] === 'online' && Number(m[2]) === offset);
}
