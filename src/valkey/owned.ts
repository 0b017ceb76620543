import type { Redis } from 'ioredis';
import { closeClient, createClient, nodeClient } from './client.js';
import { formCluster, type ShardPlan } from './cluster-form.js';
import type { LaunchedNode, NodeLauncher } from './node-args.js';
import { reapOrphans } from './registry.js';
import { describeSpec, type NodeInfo, type Topology, type TopologySpec, type ValkeyClient } from './types.js';
import { ValkeyUnavailableError } from './errors.js';
import { makeTlsMaterial } from './tls-material.js';
import type { TlsSettings } from './tls.js';

export interface OwnedOptions {
  /** cluster-node-timeout (ms); small so failovers take seconds, not the default 15 s. */
  readonly nodeTimeoutMs?: number;
}

export const DEFAULT_NODE_TIMEOUT_MS = 2000;

export function validateSpec(spec: TopologySpec): void {
  if (spec.kind === 'standalone') return;
  if (!Number.isInteger(spec.shards) || spec.shards < 1 || spec.shards > 64) throw new RangeError(`cluster shards must be an integer in 1..64, got ${spec.shards}`);
  const r = spec.replicasPerShard ?? 0;
  if (!Number.isInteger(r) || r < 0 || r > 5) throw new RangeError(`replicasPerShard must be an integer in 0..5, got ${r}`);
}

/** Starts a topology whose every node the harness launches (native processes or containers). */
export async function startOwned(spec: TopologySpec, launcher: NodeLauncher, opts: OwnedOptions = {}): Promise<Topology> {
  validateSpec(spec);
  reapOrphans();
  const nodeTimeoutMs = opts.nodeTimeoutMs ?? DEFAULT_NODE_TIMEOUT_MS;
  // One throwaway CA per topology: its nodes trust each other (the TLS bus) and the client certificate.
  const material = spec.tls ? makeTlsMaterial() : undefined;
  const clientTls: TlsSettings | undefined = material && { ca: material.caCert, cert: material.clientCert, key: material.clientKey };
  const launched: LaunchedNode[] = [];
  const pending: Promise<unknown>[] = [];
  const stopAll = async () => {
    // A launch still under way when another failed must finish before it can be stopped.
    await Promise.allSettled(pending);
    await Promise.all(launched.map((n) => n.stop()));
  };
  const launch = (cluster: boolean) => {
    const p = launcher.launch(cluster, nodeTimeoutMs, material).then((n) => {
      launched.push(n);
      return n;
    });
    pending.push(p);
    return p;
  };
  try {
    let nodes: NodeInfo[];
    let target: Parameters<typeof createClient>[0];
    if (spec.kind === 'standalone') {
      const n = await launch(false);
      nodes = [info(n, 'primary')];
      target = { kind: 'standalone', host: n.host, port: n.port };
    } else {
      const r = spec.replicasPerShard ?? 0;
      const plans: ShardPlan[] = await Promise.all(
        Array.from({ length: spec.shards }, async () => {
          const [primary, ...replicas] = await Promise.all(Array.from({ length: 1 + r }, () => launch(true)));
          return { primary: primary!, replicas };
        }),
      );
      try {
        await formCluster(plans);
      } catch (err) {
        throw new ValkeyUnavailableError(`the ${describeSpec(spec)} did not form: ${(err as Error).message}`, { cause: err });
      }
      nodes = plans.flatMap((p) => [info(p.primary, 'primary'), ...p.replicas.map((x) => info(x, 'replica'))]);
      target = { kind: 'cluster', seeds: nodes.filter((n) => n.role === 'primary').map(({ host, port }) => ({ host, port })) };
    }
    let stopped = false;
    return {
      spec,
      provider: launcher.provider,
      nodes,
      keyPrefix: '',
      owned: true,
      destructiveAllowed: true,
      ...(clientTls && { tls: clientTls }),
      client: (): ValkeyClient => createClient(target),
      flush: () => flushPrimaries(nodes),
      async stop() {
        if (stopped) return;
        stopped = true;
        await stopAll();
      },
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

function info(n: LaunchedNode, role: NodeInfo['role']): NodeInfo {
  return { host: n.host, port: n.port, role, ...(n.pid !== undefined ? { pid: n.pid } : {}), ...(n.tlsPort !== undefined ? { tlsPort: n.tlsPort } : {}) };
}

/**
 * FLUSHALL on every node that is a primary NOW (a failover may have swapped roles). `connect`
 * opens the node connection (default nodeClient; an external endpoint passes one that carries its
 * credentials and names each FLUSHALL on stderr).
 */
export async function flushPrimaries(nodes: readonly NodeInfo[], connect: (n: NodeInfo) => Redis = (n) => nodeClient(n)): Promise<void> {
  await Promise.all(
    nodes.map(async (n) => {
      const c = connect(n);
      try {
        const role = (await c.call('ROLE')) as unknown[];
        if (role[0] === 'master') await c.flushall();
      } finally {
        await closeClient(c);
      }
    }),
  );
}
