/**
 * The replica-read clients (the read-offload fallback) the replica row compares. All read through a
 * Cluster client with replicas in its read pool; they differ in when a replica may answer a read.
 *
 * - `guarded` (the design to ship, docs/decisions.md "Replica reads"): the replicas run with
 *   `replica-serve-stale-data no`, so a replica whose link to its primary is not up refuses every
 *   read (MASTERDOWN) — checked by the server at each read, atomically. The client sends a replica
 *   reads only once it has admitted it: a new connection is admitted when the replica reports its
 *   link up and its offset at least the primary's offset read when admission began (a replica that
 *   resumed by partial resync is connected a moment before its backlog is applied). A read a
 *   replica refused (MASTERDOWN, LOADING) or failed (its connection closed) is re-sent to the primary
 *   — reads are idempotent; writes never go to a replica — and a refusal revokes the admission.
 * - `no-admission`: the server half alone (`replica-serve-stale-data no`, refused reads re-sent to
 *   the primary): a replica takes reads as soon as its link is connected, also in the moment after
 *   a partial resync's +CONTINUE when it has not yet applied what it missed.
 * - `unguarded`: the same repair, but a replica takes reads as soon as it is in the slot map, and
 *   answers them from whatever it holds (`replica-serve-stale-data yes`, the server's default).
 * - `library-default`: ioredis as it comes (scaleReads 'slave', no repair).
 *
 * The repair (guarded, unguarded): ioredis does not reconnect a closed node connection
 * (clusterNodeRetryStrategy is null, and there is no periodic slot refresh by default), so a
 * replica that restarts is dropped from the pool; when a node leaves the pool, the slot map is
 * refreshed every REFRESH_EVERY_MS until it is back, without blocking any command.
 */
import { Command, type Cluster, type NatMap, type Redis } from 'ioredis';
import { closeClient, createClient, type NodeInfo } from '../../../../valkey/index.js';
import { sleep } from '../stats.js';

export const REPLICA_READ_DESIGNS = ['guarded', 'no-admission', 'unguarded', 'library-default'] as const;
export type ReplicaReadDesign = (typeof REPLICA_READ_DESIGNS)[number];

/** Where a client stands with one replica: in its read pool, trying to get it back, or not trying. */
export type PoolState = 'pooled' | 'rejoining' | 'gone';

export interface ReplicaReadClient {
  /** One read as the caller sees it: a value, a nil, or an error that reached the caller. */
  get(key: string): Promise<string | null>;
  /** The replica at `endpoint` (host:port) as this client holds it now. */
  poolState(endpoint: string): PoolState;
  /** Reads a replica refused or failed that were re-sent to the primary. */
  readonly fallbacks: number;
  close(): Promise<void>;
}

/** What each design needs on every replica (a deployment's config file; the drill sets it). */
export const REPLICA_CONFIG: Readonly<Record<ReplicaReadDesign | 'pinned', readonly (readonly [string, string])[]>> = {
  guarded: [['replica-serve-stale-data', 'no']],
  'no-admission': [['replica-serve-stale-data', 'no']],
  unguarded: [],
  'library-default': [],
  pinned: [],
};
/** The server's defaults for every parameter a design sets (restored after the drill). */
export const REPLICA_CONFIG_DEFAULTS: readonly (readonly [string, string])[] = [['replica-serve-stale-data', 'yes']];

const REFRESH_EVERY_MS = 250;
const REPAIR_FOR_MS = 10_000;
/** How often an admission re-reads the replica's link and offset. */
const ADMIT_POLL_MS = 50;
/** The replica said it cannot serve now: its link is down (stale data refused) or it is loading. */
const REFUSED = /^(MASTERDOWN|LOADING)\b/;

const nodeKey = (r: Redis) => `${r.options.host ?? ''}:${r.options.port ?? ''}`;
/** One field of an INFO reply (`name:value` lines). */
export const infoField = (info: string, name: string): string | undefined => new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim();

interface Repair {
  rejoining(key: string): boolean;
}

/** Refreshes the slot map every REFRESH_EVERY_MS while a node is out of the pool (at most REPAIR_FOR_MS). */
function repairPool(c: Cluster): Repair {
  const missing = new Map<string, NodeJS.Timeout>();
  c.on('-node', (r: Redis) => {
    const key = nodeKey(r);
    if (missing.has(key)) return;
    const since = Date.now();
    const timer = setInterval(() => {
      if (Date.now() - since > REPAIR_FOR_MS || c.status === 'end') {
        clearInterval(timer);
        missing.delete(key);
        return;
      }
      c.refreshSlotsCache();
    }, REFRESH_EVERY_MS);
    timer.unref();
    missing.set(key, timer);
  });
  c.on('+node', (r: Redis) => {
    const t = missing.get(nodeKey(r));
    if (t) clearInterval(t);
    missing.delete(nodeKey(r));
  });
  c.on('end', () => {
    for (const t of missing.values()) clearInterval(t);
    missing.clear();
  });
  return { rejoining: (key) => missing.has(key) };
}

export interface ReaderTarget {
  readonly seeds: readonly Pick<NodeInfo, 'host' | 'port'>[];
  /** Address translation (a primary announced at a fault proxy's port). */
  readonly natMap?: NatMap;
}

function clusterFor(target: ReaderTarget): Cluster {
  return createClient({ kind: 'cluster', seeds: target.seeds }, target.natMap ? { natMap: target.natMap } : {}) as Cluster;
}

function poolStateOf(c: Cluster, repair: Repair | null, endpoint: string): PoolState {
  if (c.nodes('slave').some((n) => nodeKey(n) === endpoint)) return 'pooled';
  return repair?.rejoining(endpoint) ? 'rejoining' : 'gone';
}

/** Scales reads to replicas per command (ioredis reads options.scaleReads at each send; createClient has no option for it). */
function setScaleReads(c: Cluster, to: 'slave' | ((nodes: (Redis | undefined)[], command: Command) => Redis | undefined)): void {
  (c.options as { scaleReads: unknown }).scaleReads = to;
}

function plainReader(target: ReaderTarget, repair: boolean): ReplicaReadClient {
  const c = clusterFor(target);
  setScaleReads(c, 'slave');
  const r = repair ? repairPool(c) : null;
  return {
    get: (key) => c.get(key),
    poolState: (endpoint) => poolStateOf(c, r, endpoint),
    fallbacks: 0,
    close: () => closeClient(c),
  };
}

/** `admission` false: every replica in the pool takes reads (the no-admission design). */
function guardedReader(target: ReaderTarget, admission: boolean): ReplicaReadClient {
  const replicaSide = clusterFor(target);
  // Re-sent reads go here: the default routing (every command to the slot's primary).
  const primarySide = clusterFor(target);
  const repair = repairPool(replicaSide);
  const admitted = new WeakSet<Redis>();
  const admitting = new WeakSet<Redis>();
  const watched = new WeakSet<Redis>();
  /** The node each read was last routed to (a redirect routes it again). */
  const routedTo = new WeakMap<Command, Redis>();
  let closed = false;
  let fallbacks = 0;
  let turn = 0;

  const admit = (replica: Redis, primary: Redis | undefined) => {
    if (!primary || admitting.has(replica) || replica.status === 'end') return;
    admitting.add(replica);
    if (!watched.has(replica)) {
      watched.add(replica);
      // A connection that closed may come back to a restarted server: admitted afresh or not at all.
      replica.on('close', () => admitted.delete(replica));
    }
    void (async () => {
      try {
        const target = Number(infoField(await primary.info('replication'), 'master_repl_offset') ?? NaN);
        while (!closed && replica.status !== 'end') {
          const info = await replica.info('replication');
          if (infoField(info, 'master_link_status') === 'up' && Number(infoField(info, 'slave_repl_offset') ?? -1) >= target) {
            admitted.add(replica);
            return;
          }
          await sleep(ADMIT_POLL_MS);
        }
      } catch {
        /* the connection failed: the next read that considers it starts a new admission */
      } finally {
        admitting.delete(replica);
      }
    })();
  };

  setScaleReads(replicaSide, (nodes, command) => {
    const [primary, ...replicas] = nodes;
    const ready: Redis[] = [];
    for (const r of replicas) {
      if (!r) continue;
      if (!admission || admitted.has(r)) ready.push(r);
      else admit(r, primary);
    }
    const chosen = ready.length > 0 ? ready[turn++ % ready.length] : primary;
    if (chosen) routedTo.set(command, chosen);
    return chosen;
  });

  return {
    async get(key) {
      const cmd = new Command('get', [key], { replyEncoding: 'utf8' });
      try {
        return (await replicaSide.sendCommand(cmd)) as string | null;
      } catch (err) {
        const node = routedTo.get(cmd);
        // Only a replica's refusal or failure is ours to absorb; the primary's reaches the caller.
        if (node?.options.readOnly !== true) throw err;
        if (REFUSED.test((err as Error).message)) admitted.delete(node);
        fallbacks++;
        return await primarySide.get(key);
      }
    },
    poolState: (endpoint) => poolStateOf(replicaSide, repair, endpoint),
    get fallbacks() {
      return fallbacks;
    },
    async close() {
      closed = true;
      await Promise.all([closeClient(replicaSide), closeClient(primarySide)]);
    },
  };
}

export function replicaReadClient(design: ReplicaReadDesign, target: ReaderTarget): ReplicaReadClient {
  if (design === 'guarded' || design === 'no-admission') return guardedReader(target, design === 'guarded');
  return plainReader(target, design === 'unguarded');
}
