/**
 * A replica's replication link routed through a FaultProxy, so it can be cut for real. Cluster mode
 * refuses REPLICAOF, so the primary announces the proxy's port instead (`cluster-announce-port`, live):
 * its replica learns the new address by gossip and re-connects through the proxy. Clients that
 * must not pass the proxy map the announced port back (natMap). `cut()` stops the proxy: the link
 * drops and every re-connect is refused, so nothing the primary writes afterwards reaches the
 * replica — the replica lags for real, by exactly what was written since the cut. `hold()` drops the
 * link too but parks every re-connect until `release()`: the replica stays down (it waits in its
 * handshake), and resyncs the moment the caller releases it (`releaseHandshake()` first, to hold it
 * connected but not yet sent what it missed).
 */
import type { NatMap, Redis } from 'ioredis';
import { closeClient, nodeClient } from '../../../valkey/index.js';
import { readSlotMap } from '../../../valkey/cluster-map.js';
import { FaultProxy } from '../../../valkey/fault-proxy.js';
import { InfrastructureFault } from '../../../valkey/fault.js';
import { waitUntil } from '../../../valkey/wait.js';

export interface Endpoint {
  readonly host: string;
  readonly port: number;
}

export interface ReplicationLink {
  /** The port the primary announces now (the proxy's). */
  readonly announcedPort: number;
  /** For clients: the announced address mapped back to the primary itself. */
  readonly natMap: NatMap;
  /**
   * When the cut had taken effect (Date.now() once every proxied socket was closed), or null: a
   * call started after it cannot reach the replica; one started before may still have (its
   * replica's ACK crossed the proxy while it stopped).
   */
  readonly cutAt: number | null;
  cut(): Promise<void>;
  /** Drops the link now; every re-connect waits (parked in the proxy) until release(). */
  hold(): void;
  /** Forwards the parked re-connects (and any later one): the replica resyncs. */
  release(): void;
  /**
   * Half a release: the re-connects go through up to the primary's answer to PSYNC (+CONTINUE or
   * +FULLRESYNC) — the replica is connected at the offset it had — and the replication stream after
   * that answer waits for release().
   */
  releaseHandshake(): void;
  /** Stops the proxy and, if the primary still answers, announces its own port again; returns once no peer routes to the proxy (bounded). */
  close(): Promise<void>;
}

const field = (info: string, name: string) => new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim();

export interface RouteOptions {
  /**
   * Every live node a client may take the slot map from (ioredis asks any node, replicas too). The
   * announced port reaches them by gossip, about a second later on some: until then a Cluster
   * client created from such a node's view routes the primary's slots to the port it knew, and
   * right after a close that is a proxy that is gone ("Connection is closed." on the first write).
   */
  readonly peers: readonly Endpoint[];
  /** A slot the primary serves: where each peer's view is read. */
  readonly slot: number;
  readonly timeoutMs?: number;
}

/** Each answering peer's port for `slot` in its CLUSTER SLOTS (null: the peer did not answer, or serves no owner for it). */
async function viewsOf(clients: readonly Redis[], slot: number): Promise<(number | null)[]> {
  return Promise.all(
    clients.map((c) =>
      readSlotMap(c)
        .then((m) => m.owner(slot).port)
        .catch(() => null),
    ),
  );
}

/** Until `done` holds of every peer's view; false when it did not within `timeoutMs`, with the last views. */
async function untilViews(peers: readonly Endpoint[], slot: number, done: (port: number | null) => boolean, timeoutMs: number): Promise<{ ok: boolean; views: (number | null)[] }> {
  const clients = peers.map((p) => nodeClient(p));
  let views: (number | null)[] = [];
  try {
    const ok = await waitUntil("the peers' slot maps", async () => (views = await viewsOf(clients, slot)).every(done), timeoutMs, 20).then(
      () => true,
      () => false,
    );
    return { ok, views };
  } finally {
    await Promise.all(clients.map((c) => closeClient(c)));
  }
}

export async function routeThroughProxy(primary: Endpoint, replica: Endpoint, opts: RouteOptions): Promise<ReplicationLink> {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const proxy = await new FaultProxy(primary).start();
  const pc = nodeClient(primary);
  const rc = nodeClient(replica);
  try {
    await pc.call('CONFIG', 'SET', 'cluster-announce-port', String(proxy.port));
    await waitUntil(
      `the replica ${replica.host}:${replica.port} to replicate through the proxy`,
      async () => {
        const info = await rc.info('replication');
        return field(info, 'master_port') === String(proxy.port) && field(info, 'master_link_status') === 'up';
      },
      timeoutMs,
      20,
    );
    // Every view at the proxy's port: no client the caller makes can see an older address.
    const seen = await untilViews(opts.peers, opts.slot, (port) => port === proxy.port, timeoutMs);
    if (!seen.ok)
      throw new InfrastructureFault({
        kind: 'timeout',
        reason: `not every node lists ${primary.host}:${primary.port} at its proxy's port ${proxy.port} within ${timeoutMs} ms (slot ${opts.slot}: ${opts.peers.map((p, i) => `${p.port} → ${seen.views[i] ?? 'no answer'}`).join(', ')})`,
      });
  } catch (err) {
    await proxy.stop();
    await pc.call('CONFIG', 'SET', 'cluster-announce-port', '0').catch(() => undefined);
    await closeClient(pc);
    throw err;
  } finally {
    await closeClient(rc);
  }
  let cutAt: number | null = null;
  return {
    announcedPort: proxy.port,
    natMap: { [`${primary.host}:${proxy.port}`]: { host: primary.host, port: primary.port } },
    get cutAt() {
      return cutAt;
    },
    async cut() {
      await proxy.stop();
      cutAt = Date.now();
    },
    hold() {
      proxy.hold();
      proxy.cutAll();
    },
    release() {
      proxy.release();
    },
    releaseHandshake() {
      proxy.releaseThrough(/^\+(CONTINUE|FULLRESYNC)\b/);
    },
    async close() {
      await proxy.stop();
      // 0: announce the port it listens on. A killed primary does not answer: nothing to restore.
      await pc.call('CONFIG', 'SET', 'cluster-announce-port', '0').catch(() => undefined);
      await closeClient(pc);
      // Best effort, bounded: for about a second every peer still routes to the stopped proxy
      // (measured: 973–1013 ms under two burners), and a client made meanwhile fails its first write.
      await untilViews(opts.peers, opts.slot, (port) => port !== proxy.port, timeoutMs);
    },
  };
}
