/**
 * The replica-read client (the read-offload fallback): the topology's Cluster client reading from
 * replicas. ioredis does not reconnect a closed node connection (clusterNodeRetryStrategy is null,
 * and there is no periodic slot refresh by default): a replica that restarts between two commands
 * is dropped from the pool and reads silently go to the primary for good. The repair under test:
 * when a node leaves the pool, refresh the slot map every REFRESH_EVERY_MS until it is back, without
 * blocking any command.
 */
import type { Cluster, Redis } from 'ioredis';
import type { Topology } from '../../../../valkey/index.js';

const REFRESH_EVERY_MS = 250;
const REPAIR_FOR_MS = 10_000;

const nodeKey = (r: Redis) => `${r.options.host ?? ''}:${r.options.port ?? ''}`;

export function replicaReader(topology: Topology, repair: boolean): Cluster {
  const c = topology.client() as Cluster;
  // Read per command (ioredis checks options.scaleReads at each send); createClient has no option for it.
  (c.options as { scaleReads: string }).scaleReads = 'slave';
  if (!repair) return c;
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
  return c;
}
