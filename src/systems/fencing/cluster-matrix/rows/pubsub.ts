/**
 * Row "pubsub": sharded pub/sub of exact topics over all three shards, message by message:
 * dynamic subscribe/unsubscribe, duplicate subscription confirmations, a forced disconnect of the
 * subscription connections (CLIENT KILL) with resubscription asserted by delivery, messages
 * published during a live slot migration; and the classic pattern subscribers (decision D2), which
 * must hear PUBLISH from every node.
 */
import type { Redis } from 'ioredis';
import { closeClient, nodeClient, type Topology, type ValkeyClient } from '../../../../valkey/index.js';
import { keySlot } from '../../../../valkey/slots.js';
import { currentSlotMap, endpointKey } from '../../../../valkey/cluster-map.js';
import { migrateSlotLive } from '../reshard.js';
import { judgeLedger, type Published } from '../pubsub/ledger.js';
import { ShardedSubscriber, type SubscriberBehaviour } from '../pubsub/subscriber.js';
import { sleep } from '../stats.js';
import { verdictOf, type MatrixRow } from '../types.js';

export const PUBSUB_VARIANTS = ['resubscribe', 'no-resubscribe', 'ignore-moved'] as const;
export type PubsubVariant = (typeof PUBSUB_VARIANTS)[number];

const BEHAVIOUR: Readonly<Record<PubsubVariant, SubscriberBehaviour>> = {
  resubscribe: { resubscribe: true, followMoved: true },
  'no-resubscribe': { resubscribe: false, followMoved: true },
  'ignore-moved': { resubscribe: true, followMoved: false },
};

const TOPICS = 24;
const PER_TOPIC = 4;
/** How long a subscriber gets to come back after a kill or a slot move before delivery is judged. */
export const RECOVERY_BOUND_MS = 2000;

/** Exact topics (no hash tag: each hashes to its own slot) until every primary owns some. */
async function spreadTopics(topology: Topology): Promise<string[]> {
  const map = await currentSlotMap(topology);
  const topics: string[] = [];
  for (let i = 0; topics.length < TOPICS || new Set(topics.map((t) => endpointKey(map.owner(keySlot(t))))).size < map.primaries.length; i++) {
    topics.push(`buzz:c${i % 5}:channel:${(0x9e3779b1 * (i + 1)) >>> 0}`);
  }
  return topics;
}

class Harness {
  readonly published: Published[] = [];
  readonly errors: string[] = [];
  readonly recovering = new Set<string>();
  private n = 0;
  constructor(
    private readonly pub: ValkeyClient,
    readonly sub: ShardedSubscriber,
  ) {}

  async publish(topic: string, phase: string, expectSubscribed: boolean): Promise<number> {
    const payload = `${phase}#${++this.n}`;
    try {
      const receivers = Number(await this.pub.spublish(topic, payload));
      this.published.push({ topic, payload, receivers, phase, expectSubscribed });
      return receivers;
    } catch (err) {
      this.errors.push(`${phase}: SPUBLISH ${topic}: ${(err as Error).message}`);
      return 0;
    }
  }

  async round(topics: readonly string[], phase: string, subscribed: (t: string) => boolean): Promise<void> {
    for (let i = 0; i < PER_TOPIC; i++) await Promise.all(topics.map((t) => this.publish(t, phase, subscribed(t))));
  }

  /** Probes each topic until the server counts a receiver, within the bound; returns ms, or null when it never came back. */
  async recovery(topics: readonly string[], phase: string): Promise<number | null> {
    this.recovering.add(phase);
    const t0 = performance.now();
    const waiting = new Set(topics);
    while (waiting.size > 0 && performance.now() - t0 < RECOVERY_BOUND_MS) {
      await Promise.all([...waiting].map(async (t) => ((await this.publish(t, phase, true)) >= 1 ? waiting.delete(t) : undefined)));
      if (waiting.size > 0) await sleep(50);
    }
    return waiting.size === 0 ? Math.round(performance.now() - t0) : null;
  }

  /** Waits (bounded) until every message the server counted as received has arrived. */
  async settle(): Promise<void> {
    const want = this.published.filter((p) => p.receivers >= 1).length;
    const t0 = performance.now();
    while (this.sub.deliveries.length < want && performance.now() - t0 < 1500) await sleep(20);
    await sleep(50);
  }
}

async function killConnections(sub: ShardedSubscriber): Promise<number> {
  let killed = 0;
  for (const { endpoint, id } of await sub.connectionIds()) {
    const [host, port] = [endpoint.slice(0, endpoint.lastIndexOf(':')), Number(endpoint.slice(endpoint.lastIndexOf(':') + 1))];
    const admin = nodeClient({ host, port });
    try {
      killed += Number(await admin.call('CLIENT', 'KILL', 'ID', id));
    } finally {
      await closeClient(admin);
    }
  }
  return killed;
}

/** PSUBSCRIBE on one node; PUBLISH on every node: a classic subscriber hears the whole cluster (A4). */
async function patternBroadcast(topology: Topology): Promise<{ heard: number; sent: number; missing: string[] }> {
  const listener: Redis = nodeClient(topology.nodes[0]!);
  const heard = new Set<string>();
  listener.on('pmessage', (_p: string, _ch: string, msg: string) => heard.add(msg));
  const sent: string[] = [];
  try {
    await listener.psubscribe('buzz:*:cache-invalidate', 'buzz:*:conn-control');
    for (const n of topology.nodes) {
      const c = nodeClient(n);
      try {
        for (const ch of ['buzz:c1:cache-invalidate', 'buzz:c2:conn-control']) {
          const msg = `${ch} from ${n.port}`;
          await c.publish(ch, msg);
          sent.push(msg);
        }
      } finally {
        await closeClient(c);
      }
    }
    const t0 = performance.now();
    while (heard.size < sent.length && performance.now() - t0 < 1500) await sleep(20);
    return { heard: heard.size, sent: sent.length, missing: sent.filter((m) => !heard.has(m)) };
  } finally {
    await closeClient(listener);
  }
}

export const pubsubRow: MatrixRow<PubsubVariant> = {
  name: 'pubsub',
  surface: 'Subscriptions (sharded pub/sub, RESP3 push)',
  topology: { kind: 'cluster', shards: 3 },
  variants: PUBSUB_VARIANTS,
  async run(ctx, variant) {
    const { topology } = ctx;
    const topics = await spreadTopics(topology);
    const pub = topology.client();
    const sub = new ShardedSubscriber(topology, BEHAVIOUR[variant]);
    const h = new Harness(pub, sub);
    const silent: string[] = [];
    try {
      // 1. subscribe everything; publish; unsubscribe half; publish; subscribe two of them back.
      for (const t of topics) await sub.subscribe(t);
      const resp = await sub.protocols();
      if (resp.some((v) => v !== 3)) h.errors.push(`subscription connections speak RESP ${resp.join(',')}: sharded push delivery is specified on RESP3`);
      const on = new Set(topics);
      await h.round(topics, 'steady', (t) => on.has(t));
      const half = topics.filter((_, i) => i % 2 === 1);
      for (const t of half) {
        await sub.unsubscribe(t);
        on.delete(t);
      }
      await h.round(topics, 'after-unsubscribe', (t) => on.has(t));
      for (const t of half.slice(0, 2)) {
        await sub.subscribe(t);
        on.add(t);
      }
      // 2. duplicate confirmations: subscribe live topics again; each message must still arrive once.
      const dup = [...on].slice(0, 3);
      for (const t of dup) await sub.subscribe(t);
      await h.round([...on], 'duplicate-confirmations', (t) => on.has(t));
      const pongs = await sub.ping();
      if (pongs.some((p) => p !== 'PONG')) silent.push(`after duplicate confirmations a subscribed connection answered PING with ${pongs.join(',')}`);
      await h.settle();
      // 3. forced disconnect of every subscription connection.
      const killed = await killConnections(sub);
      const resubMs = await h.recovery([...on], 'after-kill-recovery');
      if (resubMs === null) silent.push(`after CLIENT KILL the subscriptions did not come back within ${RECOVERY_BOUND_MS} ms (no error raised)`);
      await h.round([...on], 'after-kill', (t) => on.has(t));
      await h.settle();
      // 4. messages published during a live migration of two subscribed topics' slots.
      const map = await currentSlotMap(topology);
      const moving = [...on].filter((t, i, a) => a.findIndex((u) => endpointKey(map.owner(keySlot(u))) === endpointKey(map.owner(keySlot(t)))) === i).slice(0, 2);
      let publishing = true;
      const during = (async () => {
        while (publishing) {
          await Promise.all(moving.map((t) => h.publish(t, 'during-migration', true)));
          await sleep(15);
        }
      })();
      const migrations = [];
      for (const t of moving) migrations.push(await migrateSlotLive(map.primaries, keySlot(t), { batch: 1, pauseMs: 60 }));
      publishing = false;
      await during;
      h.recovering.add('during-migration');
      const rerouteMs = await h.recovery(moving, 'after-migration-recovery');
      if (rerouteMs === null) silent.push(`after the live migration the moved topics did not come back within ${RECOVERY_BOUND_MS} ms (no error raised)`);
      await h.round([...on], 'after-migration', (t) => on.has(t));
      await h.settle();
      // 5. classic pattern subscribers stay broadcast.
      const pattern = await patternBroadcast(topology);
      if (pattern.missing.length > 0) silent.push(`pattern subscriber missed ${pattern.missing.length} of ${pattern.sent} broadcasts: ${pattern.missing.slice(0, 2).join(', ')}`);

      const j = judgeLedger(h.published, sub.deliveries, h.recovering);
      silent.push(...j.lost, ...j.duplicates, ...j.unexpected, ...j.unreachable);
      const duringMsgs = h.published.filter((p) => p.phase === 'during-migration');
      const figures = {
        topics: topics.length,
        'subscriber RESP': [...new Set(resp)].join(','),
        shards: new Set(topics.map((t) => endpointKey(map.owner(keySlot(t))))).size,
        published: h.published.length,
        'counted as received': h.published.filter((p) => p.receivers >= 1).length,
        delivered: j.delivered,
        lost: j.lost.length,
        'duplicates / unexpected': `${j.duplicates.length}/${j.unexpected.length}`,
        'confirmations (incl. duplicates)': sub.confirmations,
        'connections killed': killed,
        'resubscribed after kill ms': resubMs ?? `> ${RECOVERY_BOUND_MS}`,
        'during migration published / 0 receivers': `${duringMsgs.length}/${duringMsgs.filter((p) => p.receivers === 0).length}`,
        're-routed after migration ms': rerouteMs ?? `> ${RECOVERY_BOUND_MS}`,
        'slots migrated': migrations.map((m) => `${m.slot}`).join(','),
        'pattern broadcasts heard': `${pattern.heard}/${pattern.sent}`,
      };
      return {
        errors: verdictOf([...h.errors, ...sub.errors]),
        silentlyWrong: verdictOf(silent),
        figures,
        notes: ['SPUBLISH with 0 receivers during a migration or recovery is in contract (at-most-once hint); one the server counted as received must arrive once'],
      };
    } finally {
      await sub.close();
      await closeClient(pub);
    }
  },
};
