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
import type { NatMap } from 'ioredis';
import { closeClient, nodeClient } from '../../../valkey/index.js';
import { FaultProxy } from '../../../valkey/fault-proxy.js';
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
  /** Stops the proxy and, if the primary still answers, announces its own port again. */
  close(): Promise<void>;
}

const field = (info: string, name: string) => new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim();

export async function routeThroughProxy(primary: Endpoint, replica: Endpoint, timeoutMs = 10_000): Promise<ReplicationLink> {
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
  } catch (err) {
    await proxy.stop();
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
    },
  };
}
