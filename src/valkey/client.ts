import { Redis, Cluster, type RedisOptions, type ClusterOptions, type NatMap } from 'ioredis';
import type { ClientTarget, ValkeyClient } from './types.js';
import { UnsafeOperationError } from './errors.js';
import { NatMappedCluster } from './nat-cluster.js';

/**
 * Connection options that never re-send a command that may have executed.
 *
 * ioredis keeps written-but-unanswered commands and, by default, writes them again after it
 * reconnects (a script whose reply was lost then runs twice and the caller hears "success").
 * - standalone: `maxRetriesPerRequest: 0` rejects every queued command on the first close
 *   (MaxRetriesPerRequestError); `autoResendUnfulfilledCommands: false` is kept as a second lock.
 *   (The latter alone leaves the call pending forever.)
 * - Cluster: node connections have no retryStrategy, so a close rejects with "Connection is
 *   closed."; the Cluster retries that after `retryDelayOnFailover` ms unless it is 0.
 *   `redisOptions.maxRetriesPerRequest` does not reach that path.
 * MOVED / ASK / TRYAGAIN / CLUSTERDOWN replies are still followed: the server did not execute those.
 * Both sets are proved by test/valkey/no-resend.test.ts.
 */
export function standaloneClientOptions(): RedisOptions {
  return {
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    // Reconnect quickly: a topology the harness started is on loopback.
    retryStrategy: (times) => Math.min(times * 50, 1000),
    connectTimeout: 5000,
    lazyConnect: false,
  };
}

export function clusterClientOptions(natMap?: NatMap): ClusterOptions {
  return {
    retryDelayOnFailover: 0,
    // Slots are refreshed on MOVED anyway; CLUSTERDOWN while a fresh cluster settles is retried.
    retryDelayOnClusterDown: 100,
    retryDelayOnTryAgain: 50,
    enableReadyCheck: true,
    redisOptions: { maxRetriesPerRequest: 0, autoResendUnfulfilledCommands: false, connectTimeout: 5000 },
    ...(natMap ? { natMap } : {}),
  };
}

export interface ClientExtras {
  /** ioredis keyPrefix: prepended to every key (also to EVAL KEYS). */
  readonly keyPrefix?: string;
  /** Refuse FLUSHALL/FLUSHDB/CONFIG SET/CLUSTER changes before they are sent (non-owned topologies). */
  readonly guardDestructive?: boolean;
  /** Cluster only: address translation (e.g. a fault proxy in front of a node). */
  readonly natMap?: NatMap;
}

/** The one ioredis factory: a Redis client for a standalone node, a Cluster client for a seed list. */
export function createClient(target: ClientTarget, extras: ClientExtras = {}): ValkeyClient {
  const prefix = extras.keyPrefix ? { keyPrefix: extras.keyPrefix } : {};
  let client: ValkeyClient;
  if (target.kind === 'standalone') {
    client = new Redis({ ...standaloneClientOptions(), ...prefix, host: target.host, port: target.port });
  } else {
    if (target.seeds.length === 0) throw new Error('createClient: a cluster needs at least one seed');
    const seeds = target.seeds.map((s) => ({ host: s.host, port: s.port }));
    const options = { ...clusterClientOptions(extras.natMap), ...prefix };
    // Behind a NAT (fault proxies), redirects must be translated too: see nat-cluster.ts.
    client = extras.natMap ? new NatMappedCluster(seeds, options) : new Cluster(seeds, options);
  }
  // An unhandled 'error' event would crash the process; command failures reach their callers anyway.
  client.on('error', () => {});
  if (extras.guardDestructive) guardDestructiveCommands(client);
  return client;
}

const CLUSTER_READ_ONLY = new Set(['INFO', 'NODES', 'SLOTS', 'SHARDS', 'KEYSLOT', 'MYID', 'MYSHARDID', 'COUNTKEYSINSLOT', 'GETKEYSINSLOT', 'LINKS', 'REPLICAS', 'SLAVES', 'HELP']);

/** Why a command is forbidden on a non-owned topology, or null when it is allowed. */
export function destructiveReason(name: string, args: readonly unknown[]): string | null {
  const cmd = name.toUpperCase();
  const sub = typeof args[0] === 'string' || Buffer.isBuffer(args[0]) ? String(args[0]).toUpperCase() : '';
  if (cmd === 'FLUSHALL' || cmd === 'FLUSHDB') return `${cmd} would delete data that is not the harness's`;
  if (cmd === 'CONFIG' && sub !== 'GET') return `CONFIG ${sub} would reconfigure a server the harness does not own`;
  if (cmd === 'CLUSTER' && !CLUSTER_READ_ONLY.has(sub)) return `CLUSTER ${sub} would change a cluster the harness does not own`;
  if (cmd === 'SHUTDOWN' || cmd === 'DEBUG' || cmd === 'REPLICAOF' || cmd === 'SLAVEOF' || cmd === 'FAILOVER') return `${cmd} is not allowed on a server the harness does not own`;
  return null;
}

interface CommandLike { name: string; args: unknown[]; reject(err: Error): void; promise: Promise<unknown> }

/** Wraps sendCommand so that forbidden commands are rejected locally and never reach the server. */
function guardDestructiveCommands(client: ValkeyClient): void {
  const target = client as unknown as { sendCommand(cmd: CommandLike, ...rest: unknown[]): unknown };
  const original = target.sendCommand.bind(target);
  target.sendCommand = (cmd: CommandLike, ...rest: unknown[]) => {
    const why = destructiveReason(cmd.name, cmd.args);
    if (why !== null) {
      cmd.reject(new UnsafeOperationError(`refused: ${why} (set FENCECHECK_ALLOW_DESTRUCTIVE=1 to allow)`));
      return cmd.promise;
    }
    return original(cmd, ...rest);
  };
}

/** A direct connection to one node (admin, probes, reading the keyspace of one shard), no-resend options. */
export function nodeClient(node: { host: string; port: number }): Redis {
  const c = new Redis({ ...standaloneClientOptions(), host: node.host, port: node.port });
  c.on('error', () => {});
  return c;
}

/** Closes a client without waiting on a server that may be gone. */
export async function closeClient(client: ValkeyClient): Promise<void> {
  try {
    await Promise.race([client.quit(), new Promise((r) => setTimeout(r, 1000))]);
  } catch {
    /* already closed */
  }
  client.disconnect();
}
