import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeClient, startTopology, type Topology, type ValkeyClient } from '../../src/valkey/index.js';
import { createDoor, type DoorBackend } from '../../src/systems/fencing/door.js';
import { loadFencingScripts, FENCING_OPS, KEYS_OF } from '../../src/systems/fencing/scripts.js';
import { fencingClient, type FencingClient } from '../../src/systems/fencing/clients/index.js';
import { sessionKeys, type SessionRef } from '../../src/systems/fencing/keys.js';
import { keySlot } from '../../src/valkey/slots.js';
import type { Phase } from '../../src/systems/fencing/state.js';

const scripts = loadFencingScripts();
let standalone: Topology;
let cluster: Topology;
let door: DoorBackend;
let local: ValkeyClient;
// Its tagged pair hashes to slot 12928, which Enable moves live to the third primary.
const session: SessionRef = { community: 'door', session: 's2' };
const keys = sessionKeys(session);
const all = [keys.oldLease, keys.oldGen, keys.newLease, keys.newGen];

beforeAll(async () => {
  standalone = await startTopology({ kind: 'standalone' });
  cluster = await startTopology({ kind: 'cluster', shards: 3 });
  door = await createDoor(cluster);
  local = standalone.client();
});
afterAll(async () => {
  await door?.close();
  if (local) await closeClient(local);
  await cluster?.stop();
  await standalone?.stop();
});

/** Runs every operation of a version once; returns the errors by operation. */
async function everyOp(c: FencingClient): Promise<Record<string, string>> {
  const calls: Record<string, () => Promise<unknown>> = {
    acquire: () => c.acquire('p9', { ttlMs: 30_000, maxGen: 4 }),
    renew: () => c.renew('p9', 1, 30_000),
    release: () => c.release('p9', 1),
    lookup: () => c.lookup(),
    known_generation: () => c.knownGeneration(),
    validate_fenced_header: () => c.validate('p9', 1),
  };
  const errors: Record<string, string> = {};
  for (const op of FENCING_OPS) {
    try {
      await calls[op]!();
    } catch (err) {
      errors[op] = (err as Error).message;
    }
  }
  return errors;
}

/** The operations whose declared KEYS span the old and new keyspaces (or both old keys): cross-slot. */
const crossSlotOps = (v: Phase) => FENCING_OPS.filter((op) => new Set(KEYS_OF[v][op].map((r) => keySlot(keys[r]))).size > 1);

describe('the mode door on real cluster-enabled nodes', () => {
  it('pre-G3: CLUSTER KEYSLOT agrees on a real tagged pair, and differs on the old pair', async () => {
    const tagged = await door.keyslotCheck([keys.newLease, keys.newGen]);
    expect(tagged.slots[0]).toBe(tagged.slots[1]);
    expect(tagged.slots[0]).toBe(keySlot(keys.newLease));
    const old = await door.keyslotCheck([keys.oldLease, keys.oldGen]);
    expect(old.slots[0]).not.toBe(old.slots[1]);
  });

  it('carries the keyspace across with its TTLs; then A and B are CROSSSLOT on one shard and on three, C runs', async () => {
    await local.set(keys.oldGen, '3');
    await local.set(keys.newGen, '3');
    await local.set(keys.newLease, 'p1:3', 'PX', 30_000);
    const conn = await door.enter(local, all);
    expect(await local.exists(...all)).toBe(0);
    expect(await conn.get(keys.newLease)).toBe('p1:3');
    const ttl = await conn.pttl(keys.newLease);
    expect(ttl).toBeGreaterThan(25_000);
    expect(ttl).toBeLessThanOrEqual(30_000);
    expect(await conn.pttl(keys.newGen)).toBe(-1);

    const check = async (shape: string) => {
      for (const v of ['A', 'B'] as const) {
        const errors = await everyOp(fencingClient(v, { conn, scripts, session }));
        const expected = crossSlotOps(v);
        expect(expected.length, `${v} has cross-slot operations`).toBeGreaterThan(0);
        for (const op of expected) expect(errors[op], `${v}/${op} on ${shape}`).toMatch(/CROSSSLOT/);
      }
      const c = fencingClient('C', { conn, scripts, session });
      expect(await everyOp(c), `C on ${shape}`).toEqual({});
      expect(await c.lookup()).toEqual({ kind: 'lease', owner: 'p1', gen: 3, where: 'new' });
    };
    await check('one shard owning all slots');
    await door.enable([keys.newLease, keys.newGen]);
    // The live pair's slot migrates while C keeps running (ASK / TRYAGAIN / MOVED are the client's).
    const c = fencingClient('C', { conn, scripts, session });
    expect(door.migrating).toBe(true);
    let during = 0;
    for (; door.migrating; during++) expect(await c.knownGeneration()).toBe(3);
    expect(during).toBeGreaterThan(0);
    // The client met ASK redirects (it answered them with ASKING on the importing primary).
    expect(await door.askRedirects()).toBeGreaterThan(0);
    await check('three shards');
    const shards = (await conn.call('CLUSTER', 'SHARDS')) as unknown[];
    expect(shards.length).toBe(3);
    await door.reset();
  });
});
