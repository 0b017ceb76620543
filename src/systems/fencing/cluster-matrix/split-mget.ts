/**
 * A multi-key read split per slot (a cluster refuses MGET across slots, even on one node), sent
 * concurrently and put back in request order with nil where a key is missing — what redis-rs's
 * MultiSlot routing does for the relay's presence bulk read. The broken orders are the
 * deliberately wrong reassemblies the matrix's presence row must catch.
 */
import type { ValkeyClient } from '../../../valkey/index.js';
import { keySlot } from '../../../valkey/slots.js';

export type MgetOrder = 'request' | 'by-slot' | 'compact';

export async function splitMget(client: ValkeyClient, keys: readonly string[], order: MgetOrder = 'request'): Promise<(string | null)[]> {
  const groups = new Map<number, number[]>();
  keys.forEach((k, i) => groups.set(keySlot(k), [...(groups.get(keySlot(k)) ?? []), i]));
  const parts = await Promise.all([...groups.values()].map(async (idx) => ({ idx, values: await client.mget(...idx.map((i) => keys[i]!)) })));
  if (order === 'by-slot') return parts.flatMap((p) => p.values);
  const out: (string | null)[] = new Array<string | null>(keys.length).fill(null);
  for (const p of parts) p.idx.forEach((i, j) => (out[i] = p.values[j] ?? null));
  return order === 'compact' ? out.filter((v) => v !== null) : out;
}
