/**
 * What every walk of a run shares on one topology: the writer whose SetPaused commits, two ways a
 * SetPaused really fails — a writer logged in as an ACL user without INCR (the queued INCR is
 * refused, so EXEC aborts the whole transaction and nothing is written), and a connection killed
 * while the node owning the keys' slot is paused for writes (killed-write.ts) — and one plain
 * connection per node, for PUBSUB NUMSUB and the pause's admin commands. The ACL user is created on
 * every node and deleted again by close().
 */
import { randomBytes } from 'node:crypto';
import { createClient, NotOwnedError, type NodeInfo, type Topology, type ValkeyClient } from '../../../valkey/index.js';
import { readSlotMap, endpointKey } from '../../../valkey/cluster-map.js';
import { keySlot } from '../../../valkey/slots.js';
import { killThenUnpause, type KillOrder } from './killed-write.js';
import type { Redis } from 'ioredis';

/** A node of the topology with its plain connection. */
export interface WorldNode {
  readonly node: NodeInfo;
  readonly client: ValkeyClient;
}

export interface DriveWorld {
  readonly topology: Topology;
  readonly writer: ValkeyClient;
  /** Logged in as a user that may not INCR: every MULTI/EXEC of SetPaused aborts (EXECABORT). */
  readonly failing: ValkeyClient;
  /** One connection per node (subscriptions are node-local on a cluster). */
  readonly nodes: readonly ValkeyClient[];
  /** The primary owning `key`'s slot (the standalone node), with its connection. */
  ownerOf(key: string): WorldNode;
  /** The order of CLIENT KILL and CLIENT UNPAUSE in a killed write (the driver's self-test breaks it). */
  readonly killOrder: KillOrder;
  close(): Promise<void>;
}

export interface DriveWorldOptions {
  /** Default: kill, then unpause. */
  readonly killOrder?: KillOrder;
}

/** Each world its own user: closing one world (ACL DELUSER drops that user's connections) leaves another's alone. */
const FAIL_USER_PREFIX = 'fencecheck-pause-noincr';

export async function openDriveWorld(topology: Topology, opts: DriveWorldOptions = {}): Promise<DriveWorld> {
  if (!topology.owned) throw new NotOwnedError('the pause model-driven run', 'it creates an ACL user whose writes fail and pauses nodes');
  const nodes = topology.nodes.map((n) => createClient({ kind: 'standalone', host: n.host, port: n.port }));
  const password = randomBytes(12).toString('hex');
  const failUser = `${FAIL_USER_PREFIX}-${randomBytes(4).toString('hex')}`;
  const writer = topology.client();
  const primaries = topology.nodes.filter((n) => n.role === 'primary');
  let failing: ValkeyClient | undefined;
  let ownerOf: (key: string) => WorldNode;
  try {
    for (const c of nodes) await c.call('ACL', 'SETUSER', failUser, 'on', `>${password}`, '~*', '&*', '+@all', '-incr');
    const creds = { username: failUser, password };
    failing =
      topology.spec.kind === 'standalone'
        ? createClient({ kind: 'standalone', host: primaries[0]!.host, port: primaries[0]!.port, ...creds })
        : createClient({ kind: 'cluster', seeds: primaries.map((p) => ({ host: p.host, port: p.port })), ...creds });
    await Promise.all([writer.ping(), failing.ping()]);
    const at = (i: number): WorldNode => ({ node: topology.nodes[i]!, client: nodes[i]! });
    const standalone = at(topology.nodes.indexOf(primaries[0]!));
    if (topology.spec.kind === 'standalone') ownerOf = () => standalone;
    else {
      // The slot map as the cluster reports it (the walks do not reshard: read once).
      const map = await readSlotMap(nodes[topology.nodes.indexOf(primaries[0]!)]! as Redis);
      const byEndpoint = new Map(topology.nodes.map((n, i) => [endpointKey(n), i] as const));
      ownerOf = (key) => {
        const i = byEndpoint.get(endpointKey(map.owner(keySlot(key))));
        if (i === undefined) throw new Error(`the owner of ${key}'s slot is not a node of the topology`);
        return at(i);
      };
    }
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
    ownerOf,
    killOrder: opts.killOrder ?? killThenUnpause,
    async close() {
      failingClient.disconnect();
      // A pause left behind by an interrupted step ends now, not after its 5 s bound.
      await Promise.all(nodes.map((c) => c.call('CLIENT', 'UNPAUSE').catch(() => {})));
      await Promise.all(nodes.map((c) => c.call('ACL', 'DELUSER', failUser).catch(() => {})));
      for (const c of nodes) c.disconnect();
      await writer.quit().catch(() => writer.disconnect());
    },
  };
}
