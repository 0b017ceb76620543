/**
 * The replication link through a fault proxy (src/systems/fencing/failover/link.ts), back to back on
 * one real cluster as the replica row and the failover drill use it: once routeThroughProxy returns,
 * every node's slot map routes the primary's slots to the proxy, and once close() returns, none
 * routes them to the stopped proxy. Without the close's wait, every node but the primary still
 * listed the stopped proxy for about a second (973–1013 ms under two burners), and a Cluster client
 * made then failed its first write with "Connection is closed." (the replica row, once in 100
 * drills under three burners).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { closeClient, createClient, nodeClient, startTopology, type Topology } from '../../src/valkey/index.js';
import { readSlotMap } from '../../src/valkey/cluster-map.js';
import { routeThroughProxy } from '../../src/systems/fencing/failover/link.js';
import { keySlot } from '../../src/valkey/slots.js';

let topology: Topology;
beforeAll(async () => {
  topology = await startTopology({ kind: 'cluster', shards: 3, replicasPerShard: 1 }, { provider: 'native' });
});
afterAll(async () => {
  await topology?.stop();
});

/** Each node's port for `slot` in its own CLUSTER SLOTS. */
async function views(slot: number): Promise<number[]> {
  return Promise.all(
    topology.nodes.map(async (n) => {
      const c = nodeClient(n);
      try {
        return (await readSlotMap(c)).owner(slot).port;
      } finally {
        await closeClient(c);
      }
    }),
  );
}

it('routes every node to the proxy before it returns, and none to it once closed, round after round', async () => {
  const replica = topology.nodes.find((n) => n.role === 'replica')!;
  const rc = nodeClient(replica);
  const primaryPort = Number(/master_port:(\d+)/.exec(await rc.info('replication'))![1]);
  await closeClient(rc);
  const primary = topology.nodes.find((n) => n.port === primaryPort)!;
  const candidates = Array.from({ length: 200 }, (_, i) => `link:k${i}`);
  // A key the primary serves, found from its own view.
  const pc = nodeClient(primary);
  const own = await readSlotMap(pc);
  await closeClient(pc);
  const mine = candidates.find((k) => own.owner(keySlot(k)).port === primary.port)!;
  expect(mine, `no key served by ${primary.port}`).toBeDefined();
  const slot = keySlot(mine);
  for (let round = 1; round <= 3; round++) {
    const link = await routeThroughProxy(primary, replica, { peers: topology.nodes, slot });
    expect(await views(slot), `round ${round}, routed`).toEqual(topology.nodes.map(() => link.announcedPort));
    // A client made now reaches the primary through the NAT map, on its first command.
    const c = createClient({ kind: 'cluster', seeds: topology.nodes }, { natMap: link.natMap });
    try {
      await c.set(mine, `round ${round}`);
      expect(await c.get(mine)).toBe(`round ${round}`);
    } finally {
      await closeClient(c);
    }
    await link.close();
    expect(await views(slot), `round ${round}, closed`).not.toContain(link.announcedPort);
  }
});
