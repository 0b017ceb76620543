/**
 * The subscription client under test: exact topics SSUBSCRIBEd on the primary that owns each
 * topic's slot, one RESP3 connection per primary, separate from the command client (the design's
 * split architecture). ioredis's own auto-resubscribe is switched off so that recovery is this
 * client's behaviour, which the variants turn off:
 * - resubscribe: after a reconnect, subscribe every topic again at its current owner;
 * - followMoved: when a slot moves (the server's unsolicited sunsubscribe, or MOVED on ssubscribe),
 *   re-route the topic to the new owner.
 */
import type { Redis } from 'ioredis';
import { closeClient, nodeClient, type Topology } from '../../../../valkey/index.js';
import { keySlot } from '../../../../valkey/slots.js';
import { currentSlotMap, endpointKey, type Endpoint, type SlotMap } from '../../../../valkey/cluster-map.js';

export interface SubscriberBehaviour {
  readonly resubscribe: boolean;
  readonly followMoved: boolean;
}

/** How long a subscriber keeps trying to move topics off a closed node (a failover takes seconds). */
const RECOVER_FOR_MS = 20_000;

export interface Delivery {
  readonly topic: string;
  readonly payload: string;
}

export class ShardedSubscriber {
  readonly deliveries: Delivery[] = [];
  /** ssubscribe confirmations received (duplicates included). */
  confirmations = 0;
  resubscribes = 0;
  readonly errors: string[] = [];
  private readonly conns = new Map<string, Redis>();
  /** topic → the endpoint it is subscribed on now. */
  private readonly topics = new Map<string, string>();
  private map: SlotMap | undefined;
  private closed = false;

  constructor(
    private readonly topology: Pick<Topology, 'nodes'>,
    private readonly behaviour: SubscriberBehaviour,
  ) {}

  private async slotMap(refresh = false): Promise<SlotMap> {
    if (refresh || !this.map) this.map = await currentSlotMap(this.topology);
    return this.map;
  }

  private conn(e: Endpoint): Redis {
    const key = endpointKey(e);
    let c = this.conns.get(key);
    if (c) return c;
    c = nodeClient(e);
    // Recovery must be ours (and switchable): ioredis would otherwise resubscribe on its own.
    (c.options as { autoResubscribe: boolean }).autoResubscribe = false;
    let readyOnce = false;
    c.on('ready', () => {
      if (readyOnce && this.behaviour.resubscribe && !this.closed) void this.resubscribeAll(key);
      readyOnce = true;
    });
    // The node may be gone for good (a failover): its topics move to the slot's new owner.
    c.on('close', () => {
      if (this.behaviour.resubscribe && !this.closed) void this.recoverFrom(key);
    });
    c.on('smessage', (topic: string, payload: string) => this.deliveries.push({ topic, payload }));
    // ioredis emits 'moved' for an unsolicited sunsubscribe (the slot left this node) and for MOVED on ssubscribe.
    c.on('moved', () => {
      if (this.behaviour.followMoved && !this.closed) void this.reroute();
    });
    this.conns.set(key, c);
    return c;
  }

  private async ssubscribeAt(topic: string, refresh: boolean): Promise<void> {
    const owner = (await this.slotMap(refresh)).owner(keySlot(topic));
    await this.conn(owner).ssubscribe(topic);
    this.confirmations++;
    this.topics.set(topic, endpointKey(owner));
  }

  async subscribe(topic: string): Promise<void> {
    try {
      await this.ssubscribeAt(topic, false);
    } catch (err) {
      if (!this.behaviour.followMoved || !/MOVED/.test((err as Error).message)) throw err;
      await this.ssubscribeAt(topic, true);
    }
  }

  async unsubscribe(topic: string): Promise<void> {
    const at = this.topics.get(topic);
    this.topics.delete(topic);
    if (at) await this.conns.get(at)?.sunsubscribe(topic);
  }

  /** The server-side id of each connection (CLIENT KILL ID targets them). */
  async connectionIds(): Promise<{ endpoint: string; id: number }[]> {
    return Promise.all([...this.conns].map(async ([endpoint, c]) => ({ endpoint, id: Number(await c.call('CLIENT', 'ID')) })));
  }

  /** The RESP version each connection speaks (CLIENT INFO resp=): push delivery needs 3. */
  async protocols(): Promise<number[]> {
    return Promise.all([...this.conns.values()].map(async (c) => Number(/\bresp=(\d)/.exec(String(await c.call('CLIENT', 'INFO')))?.[1] ?? 0)));
  }

  /** PING on every subscribed connection: its reply stream is still in step after duplicate confirmations. */
  async ping(): Promise<string[]> {
    return Promise.all([...this.conns.values()].map(async (c) => String(await c.ping())));
  }

  get subscribed(): readonly string[] {
    return [...this.topics.keys()];
  }

  private async resubscribeAll(endpoint: string): Promise<void> {
    this.resubscribes++;
    const mine = [...this.topics].filter(([, at]) => at === endpoint).map(([t]) => t);
    for (const t of mine) await this.subscribe(t).catch((err: Error) => this.errors.push(`resubscribe ${t}: ${err.message}`));
  }

  private readonly recovering = new Set<string>();
  /** Until no topic is left on a closed endpoint whose slots moved away (bounded), re-route them. */
  private async recoverFrom(endpoint: string): Promise<void> {
    if (this.recovering.has(endpoint)) return;
    this.recovering.add(endpoint);
    try {
      const deadline = Date.now() + RECOVER_FOR_MS;
      while (!this.closed && Date.now() < deadline) {
        const mine = [...this.topics].filter(([, at]) => at === endpoint).map(([t]) => t);
        if (mine.length === 0) break;
        const map = await this.slotMap(true).catch(() => undefined);
        const moved = map ? mine.filter((t) => endpointKey(map.owner(keySlot(t))) !== endpoint) : [];
        // Same owner and connected again: 'ready' resubscribed. Same owner, not connected: a failover may be under way.
        if (map && moved.length === 0 && this.conns.get(endpoint)?.status === 'ready') break;
        for (const t of moved) {
          this.resubscribes++;
          await this.ssubscribeAt(t, false).catch(() => undefined);
        }
        await new Promise((r) => setTimeout(r, 200));
      }
      if (![...this.topics.values()].includes(endpoint)) {
        // Nothing left there: stop reconnecting to a node that may be dead.
        this.conns.get(endpoint)?.disconnect();
        this.conns.delete(endpoint);
      }
    } finally {
      this.recovering.delete(endpoint);
    }
  }

  private rerouting: Promise<void> | undefined;
  private async reroute(): Promise<void> {
    // Several sunsubscribe pushes arrive together: one re-route at a time, after a fresh slot map.
    await this.rerouting;
    this.rerouting = (async () => {
      const map = await this.slotMap(true);
      for (const [t, at] of [...this.topics]) {
        const owner = endpointKey(map.owner(keySlot(t)));
        const c = this.conns.get(at);
        const still = c && (c.condition as { subscriber?: { channels(kind: string): string[] } | false } | undefined);
        const live = still && typeof still.subscriber === 'object' && still.subscriber.channels('ssubscribe').includes(t);
        if (owner === at && live) continue;
        this.resubscribes++;
        await this.ssubscribeAt(t, false).catch((err: Error) => this.errors.push(`re-route ${t}: ${err.message}`));
      }
    })().catch((err: Error) => {
      this.errors.push(`re-route: ${err.message}`);
    });
    await this.rerouting;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.conns.values()].map((c) => closeClient(c)));
  }
}
