/**
 * What every walk of a run shares on one topology: the writer whose SetPaused commits, a writer
 * whose SetPaused really fails (an ACL user without INCR: the queued INCR is refused, so EXEC aborts
 * the whole transaction and nothing is written), and one plain connection per node, for PUBSUB
 * NUMSUB. The ACL user is created on every node and deleted again by close().
 */
import { randomBytes } from 'node:crypto';
import { createClient, NotOwnedError, type Topology, type ValkeyClient } from '../../valkey/index.js';

export interface DriveWorld {
  readonly topology: Topology;
  readonly writer: ValkeyClient;
  /** Logged in as a user that may not INCR: every MULTI/EXEC of SetPaused aborts (EXECABORT). */
  readonly failing: ValkeyClient;
  /** One connection per node (subscriptions are node-local on a cluster). */
  readonly nodes: readonly ValkeyClient[];
  close(): Promise<void>;
}

const FAIL_USER = 'fencecheck-pause-noincr';

export async function openDriveWorld(topology: Topology): Promise<DriveWorld> {
  if (!topology.owned) throw new NotOwnedError('the pause model-driven run', 'it creates an ACL user whose writes fail');
  const nodes = topology.nodes.map((n) => createClient({ kind: 'standalone', host: n.host, port: n.port }));
  const password = randomBytes(12).toString('hex');
  const writer = topology.client();
  let failing: ValkeyClient | undefined;
  try {
    for (const c of nodes) await c.call('ACL', 'SETUSER', FAIL_USER, 'on', `>${password}`, '~*', '&*', '+@all', '-incr');
    const primaries = topology.nodes.filter((n) => n.role === 'primary');
    const creds = { username: FAIL_USER, password };
    failing =
      topology.spec.kind === 'standalone'
        ? createClient({ kind: 'standalone', host: primaries[0]!.host, port: primaries[0]!.port, ...creds })
        : createClient({ kind: 'cluster', seeds: primaries.map((p) => ({ host: p.host, port: p.port })), ...creds });
    await Promise.all([writer.ping(), failing.ping()]);
  } catch (err) {
    failing?.disconnect();
    writer.disconnect();
    for (const c of nodes) c.disconnect();
    throw err;
  }
  const failingClient = failing;
  return {
    topology,
    writer,
    failing: failingClient,
    nodes,
    async close() {
      failingClient.disconnect();
      await Promise.all(nodes.map((c) => c.call('ACL', 'DELUSER', FAIL_USER).catch(() => {})));
      for (const c of nodes) c.disconnect();
      await writer.quit().catch(() => writer.disconnect());
    },
  };
}
