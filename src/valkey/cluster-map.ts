/** The cluster's slot map as the nodes report it now (after a reshard or failover the topology's roles are stale). */
import type { Redis } from 'ioredis';
import { closeClient, nodeClient, type Topology } from './index.js';

export interface Endpoint {
  readonly host: string;
  readonly port: number;
}

export const endpointKey = (e: Endpoint): string => `${e.host}:${e.port}`;

export interface SlotMap {
  /** The primary serving `slot`. */
  owner(slot: number): Endpoint;
  readonly primaries: readonly Endpoint[];
}

type SlotsReply = [number, number, [string, number, ...unknown[]], ...unknown[]][];

export async function readSlotMap(conn: Redis): Promise<SlotMap> {
  const reply = (await conn.call('CLUSTER', 'SLOTS')) as SlotsReply;
  const ranges = reply.map(([lo, hi, [host, port]]) => ({ lo, hi, e: { host: host || '127.0.0.1', port } }));
  const primaries = new Map(ranges.map((r) => [endpointKey(r.e), r.e] as const));
  return {
    owner(slot) {
      const r = ranges.find((x) => slot >= x.lo && slot <= x.hi);
      if (!r) throw new Error(`slot ${slot} is not served by any primary`);
      return r.e;
    },
    primaries: [...primaries.values()],
  };
}

/** Asks the first node that answers (a killed node is skipped). */
export async function currentSlotMap(topology: Pick<Topology, 'nodes'>): Promise<SlotMap> {
  let last: unknown;
  for (const n of topology.nodes) {
    const c = nodeClient(n);
    try {
      return await readSlotMap(c);
    } catch (err) {
      last = err;
    } finally {
      await closeClient(c);
    }
  }
  throw last instanceof Error ? last : new Error('no node answers CLUSTER SLOTS');
}
