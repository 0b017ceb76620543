/**
 * The two discovery designs of the cluster design and the heartbeat that feeds both.
 * - scan: the relay's scan_ready(): SCAN MATCH mesh:ready:* COUNT 100 through the cluster client.
 *   SCAN has no key, so the client sends it to one node; the cursor ends on that node and the
 *   result is a partial, per-call varying subset, with no error.
 * - index: the fix. Heartbeat ZADDs its expiry score into one index key beside the SET PX record;
 *   discovery reads live scores, MGETs the records (split per slot), skips missing or undecodable
 *   or unattested ones, and prunes dead scores.
 * - index-no-attest: the index with the attestation check dropped (a deliberately broken read path).
 */
import type { ValkeyClient } from '../../../../valkey/index.js';
import { splitMget } from '../split-mget.js';
import { decodeRecord, INDEX_KEY, RECORD_PREFIX, recordKey, type ReadyRecord } from './record.js';

export const DISCOVERY_DESIGNS = ['index', 'scan', 'index-no-attest'] as const;
export type DiscoveryDesign = (typeof DISCOVERY_DESIGNS)[number];

export interface Heartbeat {
  readonly runtime: string;
  /** The record's value as written (a corrupt runtime writes garbage). */
  readonly value: string;
  readonly ttlMs: number;
}

/** One heartbeat: the record with its TTL and the index score = the record's expiry (ms). Returns that expiry. */
export async function heartbeat(client: ValkeyClient, hb: Heartbeat): Promise<number> {
  // Taken before sending: the server's TTL starts later, so the score never outlives the record.
  const expiry = Date.now() + hb.ttlMs;
  await Promise.all([client.set(recordKey(hb.runtime), hb.value, 'PX', hb.ttlMs), client.zadd(INDEX_KEY, expiry, hb.runtime)]);
  return expiry;
}

export interface Discovery {
  readonly records: readonly ReadyRecord[];
  /** Dead scores removed by this call (index designs). */
  readonly pruned: number;
}

async function discoverByIndex(client: ValkeyClient, secret: string, attest: boolean): Promise<Discovery> {
  const now = Date.now();
  const ids = await client.zrangebyscore(INDEX_KEY, `(${now}`, '+inf');
  const raws = ids.length > 0 ? await splitMget(client, ids.map(recordKey)) : [];
  const records = ids.flatMap((id, i) => {
    const r = decodeRecord(secret, id, raws[i] ?? null, attest);
    return r ? [r] : [];
  });
  const pruned = await client.zremrangebyscore(INDEX_KEY, '-inf', now);
  return { records, pruned };
}

async function discoverByScan(client: ValkeyClient, secret: string): Promise<Discovery> {
  const keys = new Set<string>();
  let cursor = '0';
  do {
    const [next, page] = await client.scan(cursor, 'MATCH', `${RECORD_PREFIX}*`, 'COUNT', 100);
    cursor = next;
    for (const k of page) keys.add(k);
  } while (cursor !== '0');
  const ids = [...keys].map((k) => k.slice(RECORD_PREFIX.length));
  const raws = await Promise.all(ids.map((id) => client.get(recordKey(id))));
  const records = ids.flatMap((id, i) => {
    const r = decodeRecord(secret, id, raws[i] ?? null);
    return r ? [r] : [];
  });
  return { records, pruned: 0 };
}

export function discover(design: DiscoveryDesign, client: ValkeyClient, secret: string): Promise<Discovery> {
  return design === 'scan' ? discoverByScan(client, secret) : discoverByIndex(client, secret, design === 'index');
}
