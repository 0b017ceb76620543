import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { closeClient, createClient, endpointName, nodeClient, type DestructivePolicy } from './client.js';
import { UnsafeOperationError, ValkeyUnavailableError } from './errors.js';
import { flushPrimaries } from './owned.js';
import { isHarnessServer } from './registry.js';
import { maskedMessage, maskSecrets, rememberEndpointSecrets } from '../core/secrets.js';
import { parseEndpointList, parseEndpointUrl, type EndpointUrl } from '../core/endpoint-url.js';
import { tlsFromEnvironment } from './tls.js';
import type { ClientTarget, Credentials, NodeInfo, Topology, TopologySpec } from './types.js';

export const ENV_URL = 'FENCECHECK_VALKEY_URL';
export const ENV_CLUSTER = 'FENCECHECK_VALKEY_CLUSTER';
export const ENV_ALLOW_DESTRUCTIVE = 'FENCECHECK_ALLOW_DESTRUCTIVE';

export interface Endpoint extends Credentials {
  readonly host: string;
  readonly port: number;
}

/**
 * `host:port`, `redis://host:port`, `valkey://host:port`, or `rediss://` / `valkeys://` for TLS (the
 * TLS material from FENCECHECK_TLS_*: tlsFromEnvironment), optionally with credentials:
 * `redis://user:pass@host:port`, `redis://:pass@host:port`. Read by the one parser of
 * src/core/endpoint-url.ts (the userinfo runs to the last '@'; %XX decoded), the one the mask uses;
 * the password is remembered so that no output shows it. Error messages never carry it.
 */
export function parseEndpoint(text: string): Endpoint {
  return endpointOf(parseEndpointUrl(text));
}

function endpointOf(e: EndpointUrl): Endpoint {
  rememberEndpointSecrets(e);
  return {
    host: e.host,
    port: e.port,
    ...(e.username !== undefined && { username: e.username }),
    ...(e.password !== undefined && { password: e.password }),
    ...(e.tls && { tls: tlsFromEnvironment() }),
  };
}

/**
 * Whether an address is a loopback name. Informational only: it does NOT decide ownership
 * (127.1, 0.0.0.0 or localhost may reach a server someone else runs on this machine).
 */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Whether the environment names an external endpoint for this spec. */
export function externalConfigured(spec: TopologySpec): boolean {
  return Boolean(spec.kind === 'standalone' ? process.env[ENV_URL] : process.env[ENV_CLUSTER]);
}

async function serverRunId(c: Redis): Promise<string> {
  const id = /^run_id:([0-9a-f]+)\s*$/m.exec(await c.info('server'))?.[1];
  if (!id) throw new Error('INFO server has no run_id');
  return id;
}

/** Every address the endpoint consists of: the seeds given and every node CLUSTER NODES lists (failed ones too). */
interface NodeAddress {
  readonly host: string;
  readonly port: number;
}

/**
 * Whether the harness started every node: each one answers INFO server, and the registry has a
 * live record of that port with that run_id. One node that cannot be asked makes it not owned.
 */
export async function harnessOwnsAll(addresses: readonly NodeAddress[], creds: Credentials): Promise<boolean> {
  if (addresses.length === 0) return false;
  const answers = await Promise.all(
    addresses.map(async (a) => {
      if (!(a.port > 0)) return false;
      const c = nodeClient({ ...a, ...creds });
      try {
        return isHarnessServer(a.host, a.port, await serverRunId(c));
      } catch {
        return false;
      } finally {
        await closeClient(c);
      }
    }),
  );
  return answers.every(Boolean);
}

function uniqueAddresses(list: readonly NodeAddress[]): NodeAddress[] {
  const seen = new Map<string, NodeAddress>();
  for (const a of list) seen.set(`${a.host}:${a.port}`, { host: a.host, port: a.port });
  return [...seen.values()];
}

/**
 * An endpoint the user runs (FENCECHECK_VALKEY_URL / FENCECHECK_VALKEY_CLUSTER).
 *
 * Owned only when the harness started every one of its nodes (harnessOwnsAll); its address text
 * does not matter. Anything else gets: a per-run key prefix, removed again by stop(); a client
 * that refuses FLUSHALL/FLUSHDB, CONFIG SET, CLUSTER changes, SCRIPT FLUSH/KILL, FUNCTION
 * FLUSH/DELETE/RESTORE … before sending them; a flush() that throws. With
 * FENCECHECK_ALLOW_DESTRUCTIVE=1 those commands are sent, each named on stderr first, and
 * `owned` stays false (steps that need ownership still refuse).
 */
export async function startExternal(spec: TopologySpec): Promise<Topology> {
  const raw = spec.kind === 'standalone' ? process.env[ENV_URL] : process.env[ENV_CLUSTER];
  const envName = spec.kind === 'standalone' ? ENV_URL : ENV_CLUSTER;
  if (!raw) throw new ValkeyUnavailableError(`provider 'external' needs ${envName} for a ${spec.kind} topology`);
  const shown = `${envName}=${maskSecrets(raw)}`;
  let endpoints: Endpoint[];
  try {
    // FENCECHECK_VALKEY_URL is one endpoint (a ',' in its password is itself); the seed list splits at ','.
    endpoints = (spec.kind === 'standalone' ? [parseEndpointUrl(raw)] : parseEndpointList(raw)).map(endpointOf);
  } catch (err) {
    throw new ValkeyUnavailableError(`${envName}: ${maskedMessage(err)}`, { cause: err });
  }
  if (endpoints.length === 0) throw new ValkeyUnavailableError(`${envName} names no endpoint`);
  if (spec.kind === 'standalone' && endpoints.length > 1) throw new ValkeyUnavailableError(`${envName} names ${endpoints.length} endpoints; a standalone topology is one node`);
  const withCreds = endpoints.find((e) => e.password !== undefined || e.username !== undefined);
  const tls = endpoints.find((e) => e.tls)?.tls;
  if (tls && endpoints.some((e) => !e.tls)) throw new ValkeyUnavailableError(`${envName} mixes rediss:// and plain seeds: a cluster is reached over TLS or not at all`);
  const creds: Credentials = {
    ...(withCreds?.username ? { username: withCreds.username } : {}),
    ...(withCreds?.password !== undefined ? { password: withCreds.password } : {}),
    ...(tls ? { tls } : {}),
  };
  const first = endpoints[0]!;

  const probe = nodeClient({ host: first.host, port: first.port, ...creds });
  // ioredis rejects a command on a connection that failed with "Reached the max retries per request
  // limit": the reason (a refused connection, a TLS certificate that does not verify) is the
  // connection's own error.
  let connectionError: Error | undefined;
  probe.on('error', (err: Error) => (connectionError ??= err));
  let nodes: NodeInfo[];
  let addresses: NodeAddress[];
  try {
    const clusterEnabled = /cluster_enabled:1/.test(await probe.info('cluster'));
    if (spec.kind === 'standalone') {
      if (clusterEnabled) throw new ValkeyUnavailableError(`${shown} points at a cluster-enabled node; a standalone topology needs cluster-enabled no`);
      const role = (await probe.call('ROLE')) as unknown[];
      nodes = [{ host: first.host, port: first.port, role: role[0] === 'master' ? 'primary' : 'replica' }];
      addresses = [first];
    } else {
      if (!clusterEnabled) throw new ValkeyUnavailableError(`${shown} points at a node with cluster-enabled no`);
      const text = String(await probe.call('CLUSTER', 'NODES'));
      nodes = parseClusterNodes(text);
      const shards = nodes.filter((n) => n.role === 'primary').length;
      if (shards !== spec.shards) throw new ValkeyUnavailableError(`the cluster at ${shown} has ${shards} shard(s); this topology needs ${spec.shards}`);
      addresses = uniqueAddresses([...endpoints, ...clusterNodeAddresses(text)]);
    }
  } catch (err) {
    if (err instanceof ValkeyUnavailableError) throw err;
    const why = connectionError && /max retries per request/i.test(String((err as Error).message)) ? connectionError : err;
    // One line: OpenSSL's messages end with a line break.
    throw new ValkeyUnavailableError(
      `cannot reach ${shown} (${endpointName(first)}${tls ? ', TLS' : ''}): ${maskedMessage(why)
        .replace(/\s*\n\s*/g, ' ')
        .trim()}`,
      { cause: err },
    );
  } finally {
    await closeClient(probe);
  }

  const owned = await harnessOwnsAll(addresses, creds);
  const destructiveAllowed = owned || process.env[ENV_ALLOW_DESTRUCTIVE] === '1';
  const keyPrefix = owned ? '' : `fencecheck:${Date.now().toString(36)}${randomBytes(3).toString('hex')}:`;
  const policy: DestructivePolicy | undefined = owned ? undefined : destructiveAllowed ? 'announce' : 'refuse';
  const connect = (n: NodeAddress) => nodeClient({ host: n.host, port: n.port, ...creds }, policy ? { destructive: policy } : {});
  const target: ClientTarget =
    spec.kind === 'standalone' ? { kind: 'standalone', host: first.host, port: first.port, ...creds } : { kind: 'cluster', seeds: endpoints.map((e) => ({ host: e.host, port: e.port })), ...creds };
  let stopped = false;
  return {
    spec,
    provider: 'external',
    nodes,
    keyPrefix,
    owned,
    destructiveAllowed,
    client: () => createClient(target, { keyPrefix, ...(policy ? { destructive: policy } : {}) }),
    async flush() {
      if (!destructiveAllowed) {
        throw new UnsafeOperationError(`refused: FLUSHALL on ${shown}, an endpoint the harness does not own (set ${ENV_ALLOW_DESTRUCTIVE}=1 to allow)`);
      }
      await flushPrimaries(nodes, connect);
    },
    async stop() {
      // Nothing was started. What this run wrote lives under its prefix: remove it (counters too).
      if (stopped || keyPrefix === '') return;
      stopped = true;
      try {
        const primaries = spec.kind === 'standalone' ? nodes : await currentPrimaries(addresses, creds);
        await removeKeysUnder(primaries, keyPrefix, creds);
      } catch (err) {
        process.stderr.write(`fencecheck: could not remove this run's keys (${keyPrefix}*) from ${shown}: ${maskedMessage(err)}\n`);
      }
    },
  };
}

/** The cluster's primaries now, asked of the first node that answers. */
async function currentPrimaries(addresses: readonly NodeAddress[], creds: Credentials): Promise<NodeInfo[]> {
  let last: unknown;
  for (const a of addresses) {
    const c = nodeClient({ ...a, ...creds });
    try {
      return parseClusterNodes(String(await c.call('CLUSTER', 'NODES'))).filter((n) => n.role === 'primary');
    } catch (err) {
      last = err;
    } finally {
      await closeClient(c);
    }
  }
  throw last instanceof Error ? last : new Error('no node answered CLUSTER NODES');
}

/** A SCAN MATCH pattern matching exactly the keys that start with `prefix`. */
export function prefixPattern(prefix: string): string {
  return `${prefix.replace(/[*?[\]\\]/g, (c) => `\\${c}`)}*`;
}

/**
 * Removes every key under `prefix` from each node (SCAN MATCH on a raw connection, then UNLINK,
 * one key per command so a cluster node never sees CROSSSLOT), in batches. Returns how many.
 */
export async function removeKeysUnder(nodes: readonly NodeAddress[], prefix: string, creds: Credentials = {}): Promise<number> {
  if (prefix === '') throw new RangeError('removeKeysUnder: an empty prefix would match every key');
  const pattern = prefixPattern(prefix);
  const counts = await Promise.all(
    nodes.map(async (n) => {
      const c = nodeClient({ host: n.host, port: n.port, ...creds });
      let removed = 0;
      try {
        let cursor = '0';
        do {
          const [next, keys] = await c.scanBuffer(cursor, 'MATCH', pattern, 'COUNT', 1000);
          cursor = String(next);
          const mine = keys.filter((k) => k.subarray(0, Buffer.byteLength(prefix)).equals(Buffer.from(prefix)));
          if (mine.length > 0) {
            const p = c.pipeline();
            for (const k of mine) p.unlink(k);
            for (const [err, n] of (await p.exec()) ?? []) {
              if (err) throw err;
              removed += Number(n);
            }
          }
        } while (cursor !== '0');
      } finally {
        await closeClient(c);
      }
      return removed;
    }),
  );
  return counts.reduce((a, b) => a + b, 0);
}

/** Every address CLUSTER NODES lists, failed and handshake nodes included (for the ownership check). */
function clusterNodeAddresses(text: string): NodeAddress[] {
  const out: NodeAddress[] = [];
  for (const line of text.trim().split('\n')) {
    const addr = line.split(' ')[1];
    const m = addr ? /^(.*):(\d+)@/.exec(addr) : null;
    // A node without an address cannot be asked: port 0 makes the ownership check fail.
    out.push(m?.[1] ? { host: m[1], port: Number(m[2]) } : { host: '', port: 0 });
  }
  return out;
}

/** Primaries and replicas from CLUSTER NODES (failed and handshake nodes are left out). */
export function parseClusterNodes(text: string): NodeInfo[] {
  const out: NodeInfo[] = [];
  for (const line of text.trim().split('\n')) {
    const [, addr, flags] = line.split(' ');
    if (!addr || !flags || /fail|handshake|noaddr/.test(flags)) continue;
    const m = /^(.*):(\d+)@/.exec(addr);
    if (!m) continue;
    out.push({ host: m[1]!, port: Number(m[2]), role: flags.includes('master') ? 'primary' : 'replica' });
  }
  return out;
}
