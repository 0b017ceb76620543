import { Redis, Cluster, type RedisOptions, type ClusterOptions, type NatMap } from 'ioredis';
import type { ClientTarget, Credentials, ValkeyClient } from './types.js';
import { CommandTimeoutError, UnsafeOperationError } from './errors.js';
import { NatMappedCluster } from './nat-cluster.js';
import { envInt } from '../core/env.js';
import { withTimeout } from './wait.js';
import { tlsConnectionOptions } from './tls.js';
import { installLocalityGuard, localityGuardEnabled } from './locality-guard.js';

export const ENV_CONNECT_TIMEOUT = 'FENCECHECK_CONNECT_TIMEOUT_MS';
export const ENV_COMMAND_TIMEOUT = 'FENCECHECK_COMMAND_TIMEOUT_MS';
export const DEFAULT_CONNECT_TIMEOUT_MS = 5000;
/** Above every legitimate command: MIGRATE in the door waits up to 5000 ms, test scripts spin ≈0.5 s. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 10_000;

export interface ClientTimeouts {
  /** TCP connect (ioredis connectTimeout). */
  readonly connectTimeoutMs: number;
  /** No reply to a command within this (ioredis commandTimeout; armed on the Cluster too). */
  readonly commandTimeoutMs: number;
}

/**
 * The timeouts every connection uses, read from the environment at each call (their range, 1 ms to
 * Node's longest timer, is src/core/env.ts's: a longer one would fire after 1 ms).
 */
export function clientTimeouts(): ClientTimeouts {
  return { connectTimeoutMs: envInt(ENV_CONNECT_TIMEOUT, DEFAULT_CONNECT_TIMEOUT_MS), commandTimeoutMs: envInt(ENV_COMMAND_TIMEOUT, DEFAULT_COMMAND_TIMEOUT_MS) };
}

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
 *
 * Timeouts (clientTimeouts()): ioredis arms `commandTimeout` in Redis#sendCommand, also for a
 * command parked in the offline queue while the connection waits for its handshake / ready check
 * (which are commands themselves, so a server that accepts TCP and never answers is caught). A
 * Cluster keeps commands in its own offline queue until its first slot refresh succeeds, where
 * `redisOptions.commandTimeout` never reaches them: createClient arms the same timeout on the
 * Cluster's sendCommand. A timed-out command is rejected with CommandTimeoutError naming the
 * endpoint, and is never written afterwards (a command already settled is dropped from the queues).
 */
export function standaloneClientOptions(): RedisOptions {
  const t = clientTimeouts();
  return {
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    // Reconnect quickly: a topology the harness started is on loopback.
    retryStrategy: (times) => Math.min(times * 50, 1000),
    connectTimeout: t.connectTimeoutMs,
    commandTimeout: t.commandTimeoutMs,
    lazyConnect: false,
  };
}

export function clusterClientOptions(natMap?: NatMap): ClusterOptions {
  const t = clientTimeouts();
  return {
    retryDelayOnFailover: 0,
    // Slots are refreshed on MOVED anyway; CLUSTERDOWN while a fresh cluster settles is retried.
    retryDelayOnClusterDown: 100,
    retryDelayOnTryAgain: 50,
    enableReadyCheck: true,
    redisOptions: { maxRetriesPerRequest: 0, autoResendUnfulfilledCommands: false, connectTimeout: t.connectTimeoutMs, commandTimeout: t.commandTimeoutMs },
    ...(natMap ? { natMap } : {}),
  };
}

/** What a client does with a destructive command (destructiveReason): refuse it, or name it on stderr and send it. */
export type DestructivePolicy = 'refuse' | 'announce';

export interface ClientExtras {
  /** ioredis keyPrefix: prepended to every key (also to EVAL KEYS). */
  readonly keyPrefix?: string;
  /** Refuse destructive commands before they are sent (same as destructive: 'refuse'). */
  readonly guardDestructive?: boolean;
  /**
   * 'refuse': reject destructive commands locally (UnsafeOperationError, nothing sent).
   * 'announce': write `fencecheck: destructive: CMD on HOST:PORT (FENCECHECK_ALLOW_DESTRUCTIVE=1)`
   * to stderr (or `announce`) before each is sent. Unset: no check (topologies the harness owns).
   */
  readonly destructive?: DestructivePolicy;
  /** Where 'announce' writes (default: stderr). */
  readonly announce?: (line: string) => void;
  /** Cluster only: address translation (e.g. a fault proxy in front of a node). */
  readonly natMap?: NatMap;
}

/** `host:port`, with brackets around an IPv6 address. */
export function endpointName(e: { host: string; port: number }): string {
  return `${e.host.includes(':') ? `[${e.host}]` : e.host}:${e.port}`;
}

/** AUTH, and TLS for a rediss:// endpoint (ioredis `tls`: tls.connect options; a Cluster passes them to every node). */
function credentialOptions(c: Credentials): Pick<RedisOptions, 'username' | 'password' | 'tls'> {
  return { ...(c.username ? { username: c.username } : {}), ...(c.password !== undefined ? { password: c.password } : {}), ...(c.tls ? { tls: tlsConnectionOptions(c.tls) } : {}) };
}

/** The one ioredis factory: a Redis client for a standalone node, a Cluster client for a seed list. */
export function createClient(target: ClientTarget, extras: ClientExtras = {}): ValkeyClient {
  const prefix = extras.keyPrefix ? { keyPrefix: extras.keyPrefix } : {};
  const policy: DestructivePolicy | undefined = extras.destructive ?? (extras.guardDestructive ? 'refuse' : undefined);
  const announce = extras.announce ?? ((line: string) => process.stderr.write(`${line}\n`));
  const { commandTimeoutMs } = clientTimeouts();
  let client: ValkeyClient;
  if (target.kind === 'standalone') {
    client = new Redis({ ...standaloneClientOptions(), ...credentialOptions(target), ...prefix, host: target.host, port: target.port });
    const name = endpointName(target);
    wrapSendCommand(client, { name, commandTimeoutMs, policy, announce });
  } else {
    if (target.seeds.length === 0) throw new Error('createClient: a cluster needs at least one seed');
    const seeds = target.seeds.map((s) => ({ host: s.host, port: s.port }));
    const base = clusterClientOptions(extras.natMap);
    const options = { ...base, redisOptions: { ...base.redisOptions, ...credentialOptions(target) }, ...prefix };
    // Behind a NAT (fault proxies), redirects must be translated too: see nat-cluster.ts.
    const cluster = extras.natMap ? new NatMappedCluster(seeds, options) : new Cluster(seeds, options);
    client = cluster;
    // The seeds, comma-joined (one token: "got no reply from H:P,H:P within N ms"); a routed command names its node.
    const name = seeds.map(endpointName).join(',');
    // Refusing happens once, before routing; announcing names the node the command goes to.
    wrapSendCommand(cluster, { name, commandTimeoutMs, policy: policy === 'refuse' ? 'refuse' : undefined, announce, armTimeout: true });
    cluster.on('+node', (node: Redis) => {
      wrapSendCommand(node, { name: endpointName(node.options as { host: string; port: number }), commandTimeoutMs, policy: policy === 'announce' ? 'announce' : undefined, announce });
    });
    // Opt-in (FENCECHECK_LOCALITY_GUARD=1, the test suite): keys of every command, pipeline and script call in one slot.
    if (localityGuardEnabled()) installLocalityGuard(cluster);
  }
  // An unhandled 'error' event would crash the process; command failures reach their callers anyway.
  client.on('error', () => {});
  return client;
}

const CLUSTER_READ_ONLY = new Set([
  'INFO',
  'NODES',
  'SLOTS',
  'SHARDS',
  'KEYSLOT',
  'MYID',
  'MYSHARDID',
  'COUNTKEYSINSLOT',
  'GETKEYSINSLOT',
  'LINKS',
  'REPLICAS',
  'SLAVES',
  'HELP',
  'COUNT-FAILURE-REPORTS',
]);
const ACL_CHANGES = new Set(['SETUSER', 'DELUSER', 'LOAD', 'SAVE']);

function argText(a: unknown): string {
  return typeof a === 'string' || Buffer.isBuffer(a) ? String(a).toUpperCase() : typeof a === 'number' ? String(a) : '';
}

/** Why a command is forbidden on a non-owned topology, or null when it is allowed. */
export function destructiveReason(name: string, args: readonly unknown[]): string | null {
  const cmd = name.toUpperCase();
  const sub = argText(args[0]);
  if (cmd === 'FLUSHALL' || cmd === 'FLUSHDB' || cmd === 'SWAPDB') return `${cmd} would delete data that is not the harness's`;
  if (cmd === 'CONFIG' && sub !== 'GET') return `CONFIG ${sub} would reconfigure a server the harness does not own`;
  if (cmd === 'CLUSTER' && !CLUSTER_READ_ONLY.has(sub)) return `CLUSTER ${sub} would change a cluster the harness does not own`;
  if (cmd === 'SCRIPT' && (sub === 'FLUSH' || sub === 'KILL'))
    return `SCRIPT ${sub} would ${sub === 'FLUSH' ? 'drop every script cached on' : 'kill a script running on'} a server the harness does not own`;
  if (cmd === 'FUNCTION' && (sub === 'FLUSH' || sub === 'DELETE' || sub === 'RESTORE' || sub === 'KILL' || (sub === 'LOAD' && args.some((a) => argText(a) === 'REPLACE')))) {
    return `FUNCTION ${sub} would change the functions of a server the harness does not own`;
  }
  if (cmd === 'CLIENT' && (sub === 'KILL' || sub === 'PAUSE')) return `CLIENT ${sub} would disturb other clients of a server the harness does not own`;
  if (cmd === 'ACL' && ACL_CHANGES.has(sub)) return `ACL ${sub} would change the users of a server the harness does not own`;
  if (cmd === 'MODULE' && sub !== 'LIST') return `MODULE ${sub} would change a server the harness does not own`;
  if (cmd === 'MIGRATE') return 'MIGRATE would move keys off a server the harness does not own';
  if (cmd === 'SHUTDOWN' || cmd === 'DEBUG' || cmd === 'REPLICAOF' || cmd === 'SLAVEOF' || cmd === 'FAILOVER') return `${cmd} is not allowed on a server the harness does not own`;
  return null;
}

/** `CONFIG SET`, `FLUSHALL`: the command as a destructive notice names it. */
export function commandLabel(name: string, args: readonly unknown[]): string {
  const cmd = name.toUpperCase();
  const sub = argText(args[0]);
  return ['CONFIG', 'CLUSTER', 'SCRIPT', 'FUNCTION', 'CLIENT', 'ACL', 'MODULE'].includes(cmd) && sub ? `${cmd} ${sub}` : cmd;
}

/** The stderr line written before a destructive command is sent to an endpoint the harness does not own. */
export function destructiveNotice(label: string, endpoint: string): string {
  return `fencecheck: destructive: ${label} on ${endpoint} (FENCECHECK_ALLOW_DESTRUCTIVE=1)`;
}

interface CommandLike {
  name: string;
  args: unknown[];
  isSettled?: boolean;
  reject(err: Error): void;
  setTimeout?(ms: number): void;
  promise: Promise<unknown>;
}

interface WrapOptions {
  /** Named in timeout errors and destructive notices. */
  readonly name: string;
  readonly commandTimeoutMs: number;
  readonly policy: DestructivePolicy | undefined;
  readonly announce: (line: string) => void;
  /** Arm the command timeout here (the Cluster: its offline queue is not timed by ioredis). */
  readonly armTimeout?: boolean;
}

/**
 * Wraps sendCommand: forbidden commands are rejected locally and never reach the server (or named
 * before they are sent); a command that already settled (timed out while queued) is never written;
 * ioredis' bare "Command timed out" becomes a CommandTimeoutError naming the endpoint.
 */
function wrapSendCommand(client: Redis | Cluster, o: WrapOptions): void {
  const target = client as unknown as { sendCommand(cmd: CommandLike, ...rest: unknown[]): unknown };
  const original = target.sendCommand.bind(target);
  // One function per client, not a closure per command (this is every command's hot path): the
  // command keeps the reject it had under this client's own key (a Cluster and its node clients
  // each wrap it; the innermost, the node, names the endpoint). ioredis calls `command.reject(err)`
  // as a method, so `this` is the command.
  const before = Symbol('reject before this client wrapped it');
  type Wrapped = CommandLike & { [before]?: (err: Error) => void };
  const rejectNamingTimeouts = function (this: Wrapped, err: Error): void {
    const timedOut = err instanceof Error && !(err instanceof CommandTimeoutError) && err.message === 'Command timed out';
    this[before]!.call(this, timedOut ? Object.assign(new CommandTimeoutError(this.name.toUpperCase(), o.name, o.commandTimeoutMs), { cause: err }) : err);
  };
  target.sendCommand = (cmd: Wrapped, ...rest: unknown[]) => {
    // Rejected already (its timeout fired while it waited in a queue): writing it now would run a
    // command whose caller was told it failed.
    if (cmd.isSettled) return cmd.promise;
    // A queued command passes here again when the offline queue is flushed: check and wrap it once.
    if (cmd[before]) return original(cmd, ...rest);
    if (o.policy !== undefined) {
      const why = destructiveReason(cmd.name, cmd.args);
      if (why !== null) {
        if (o.policy === 'refuse') {
          cmd.reject(new UnsafeOperationError(`refused: ${why} (set FENCECHECK_ALLOW_DESTRUCTIVE=1 to allow)`));
          return cmd.promise;
        }
        o.announce(destructiveNotice(commandLabel(cmd.name, cmd.args), o.name));
      }
    }
    cmd[before] = cmd.reject;
    cmd.reject = rejectNamingTimeouts;
    if (o.armTimeout && typeof cmd.setTimeout === 'function') cmd.setTimeout(o.commandTimeoutMs);
    return original(cmd, ...rest);
  };
}

/** A direct connection to one node (admin, probes, reading the keyspace of one shard), no-resend options and timeouts. */
export function nodeClient(node: { host: string; port: number } & Credentials, extras: Pick<ClientExtras, 'destructive' | 'announce'> = {}): Redis {
  const { username, password, tls } = node;
  return createClient(
    { kind: 'standalone', host: node.host, port: node.port, ...(username ? { username } : {}), ...(password !== undefined ? { password } : {}), ...(tls ? { tls } : {}) },
    extras,
  ) as Redis;
}

/** Closes a client without waiting on a server that may be gone. */
export async function closeClient(client: ValkeyClient): Promise<void> {
  try {
    await withTimeout(client.quit(), 1000);
  } catch {
    /* already closed */
  }
  disconnectNow(client);
}

/**
 * disconnect(), unless the client has ended already (a failed connect, a completed QUIT). ioredis's
 * disconnect() arms a referenced 2 s timer that only the socket's 'close' event clears; on a socket
 * that closed before, it runs its full 2 s and holds the process open that long after the command
 * returned (what made `topology start` take ~1.7 s to exit after Ctrl-C).
 */
export function disconnectNow(client: ValkeyClient): void {
  if (client.status !== 'end') client.disconnect();
}
