import { randomBytes } from 'node:crypto';
import { closeClient, createClient, nodeClient } from './client.js';
import { UnsafeOperationError, ValkeyUnavailableError } from './errors.js';
import { flushPrimaries } from './owned.js';
import type { ClientTarget, NodeInfo, Topology, TopologySpec } from './types.js';

export const ENV_URL = 'FENCECHECK_VALKEY_URL';
export const ENV_CLUSTER = 'FENCECHECK_VALKEY_CLUSTER';
export const ENV_ALLOW_DESTRUCTIVE = 'FENCECHECK_ALLOW_DESTRUCTIVE';

export interface Endpoint { readonly host: string; readonly port: number }

/** `redis://host:port`, `valkey://host:port` or `host:port` (no credentials: use a loopback tunnel). */
export function parseEndpoint(text: string): Endpoint {
  const t = text.trim();
  const m = /^(?:(?:redis|valkey):\/\/)?(\[[^\]]+\]|[^:/@]+):(\d+)\/?$/.exec(t);
  if (!m) throw new RangeError(`not a valkey endpoint: '${text}' (expected host:port or redis://host:port)`);
  const port = Number(m[2]);
  if (!(port > 0 && port < 65536)) throw new RangeError(`bad port in '${text}'`);
  return { host: m[1]!.replace(/^\[|\]$/g, ''), port };
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Whether the environment names an external endpoint for this spec. */
export function externalConfigured(spec: TopologySpec): boolean {
  return Boolean(spec.kind === 'standalone' ? process.env[ENV_URL] : process.env[ENV_CLUSTER]);
}

/**
 * An endpoint the user runs. Loopback endpoints (or FENCECHECK_ALLOW_DESTRUCTIVE=1) count as owned;
 * anything else gets a per-run key prefix, a client that refuses FLUSHALL/FLUSHDB/CONFIG SET/CLUSTER
 * changes before sending them, and a flush() that throws.
 */
export async function startExternal(spec: TopologySpec): Promise<Topology> {
  const raw = spec.kind === 'standalone' ? process.env[ENV_URL] : process.env[ENV_CLUSTER];
  const envName = spec.kind === 'standalone' ? ENV_URL : ENV_CLUSTER;
  if (!raw) throw new ValkeyUnavailableError(`provider 'external' needs ${envName} for a ${spec.kind} topology`);
  const endpoints = raw.split(',').filter((s) => s.trim() !== '').map(parseEndpoint);
  if (endpoints.length === 0) throw new ValkeyUnavailableError(`${envName} names no endpoint`);
  const owned = endpoints.every((e) => isLoopback(e.host)) || process.env[ENV_ALLOW_DESTRUCTIVE] === '1';
  const keyPrefix = owned ? '' : `fencecheck:${Date.now().toString(36)}${randomBytes(3).toString('hex')}:`;

  const probe = nodeClient(endpoints[0]!);
  let nodes: NodeInfo[];
  try {
    const clusterEnabled = /cluster_enabled:1/.test(await probe.info('cluster'));
    if (spec.kind === 'standalone') {
      if (clusterEnabled) throw new ValkeyUnavailableError(`${envName} points at a cluster-enabled node; a standalone topology needs cluster-enabled no`);
      const role = (await probe.call('ROLE')) as unknown[];
      nodes = [{ ...endpoints[0]!, role: role[0] === 'master' ? 'primary' : 'replica' }];
    } else {
      if (!clusterEnabled) throw new ValkeyUnavailableError(`${envName} points at a node with cluster-enabled no`);
      nodes = parseClusterNodes(String(await probe.call('CLUSTER', 'NODES')));
      const shards = nodes.filter((n) => n.role === 'primary').length;
      if (shards !== spec.shards) throw new ValkeyUnavailableError(`the cluster at ${envName} has ${shards} shard(s); this topology needs ${spec.shards}`);
    }
  } catch (err) {
    if (err instanceof ValkeyUnavailableError) throw err;
    throw new ValkeyUnavailableError(`cannot reach ${envName}=${raw}: ${(err as Error).message}`, { cause: err });
  } finally {
    await closeClient(probe);
  }
  const target: ClientTarget = spec.kind === 'standalone' ? { kind: 'standalone', ...endpoints[0]! } : { kind: 'cluster', seeds: endpoints };
  return {
    spec,
    provider: 'external',
    nodes,
    keyPrefix,
    owned,
    client: () => createClient(target, { keyPrefix, guardDestructive: !owned }),
    async flush() {
      if (!owned) throw new UnsafeOperationError(`refused: FLUSHALL on ${raw}, an endpoint the harness does not own (set ${ENV_ALLOW_DESTRUCTIVE}=1 to allow)`);
      await flushPrimaries(nodes);
    },
    async stop() {
      /* nothing was started */
    },
  };
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
