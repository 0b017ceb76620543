import { closeClient, nodeClient } from './client.js';
import { replicasInSync } from './cluster-form.js';
import type { Topology } from './types.js';
import { waitUntil } from './wait.js';

/**
 * Waits until every replica of every current primary is online at its primary's offset. Call it
 * after writes and before a failover you cause, or acknowledged writes may vanish with the old primary.
 */
export async function waitReplicasInSync(topo: Pick<Topology, 'nodes'>, timeoutMs = 30_000): Promise<void> {
  await Promise.all(
    topo.nodes.map(async (n) => {
      const c = nodeClient(n);
      try {
        const role = (await c.call('ROLE')) as unknown[];
        if (role[0] !== 'master') return;
        await waitUntil(`replicas of ${n.host}:${n.port} to catch up`, async () => replicasInSync(await c.info('replication')), timeoutMs);
      } finally {
        await closeClient(c);
      }
    }),
  );
}
