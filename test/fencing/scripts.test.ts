import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeClient, startTopology, type Topology, type ValkeyClient } from '../../src/valkey/index.js';
import { loadFencingScripts, allScriptNames, KEYS_OF, FENCING_OPS } from '../../src/systems/fencing/scripts.js';
import { fencingClient, operatorClient } from '../../src/systems/fencing/clients/index.js';
import { sessionKeys, type SessionRef } from '../../src/systems/fencing/keys.js';
import { PHASES, type Phase } from '../../src/systems/fencing/state.js';

const scripts = loadFencingScripts();
let topo: Topology;
let conn: ValkeyClient;
let n = 0;
const fresh = (): SessionRef => ({ community: 'tc', session: `s${++n}` });
const client = (v: Phase, s: SessionRef) => fencingClient(v, { conn, scripts, session: s });
const opts = { ttlMs: 30_000, maxGen: 4 };

beforeAll(async () => {
  topo = await startTopology({ kind: 'standalone' });
  conn = topo.client();
});
afterAll(async () => {
  await closeClient(conn);
  await topo?.stop();
});

/** Every key of the session with its value and whether it has a TTL. */
async function snapshot(s: SessionRef): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [role, k] of Object.entries(sessionKeys(s))) {
    const type = await conn.type(k);
    out[role] = type === 'string' ? [await conn.get(k), (await conn.pttl(k)) > 0] : type;
  }
  return out;
}

describe('fencing scripts on a real standalone node', () => {
  it('every script passes the static KEYS check and declares only its version-local keys', () => {
    expect(allScriptNames()).toHaveLength(PHASES.length * FENCING_OPS.length + 3);
    for (const op of FENCING_OPS) {
      expect(KEYS_OF.O[op].every((r) => r.startsWith('old'))).toBe(true);
      expect(KEYS_OF.C[op].every((r) => r.startsWith('new'))).toBe(true);
    }
  });

  it('O: acquire on the old key with INCR; renew/release owner+generation guarded', async () => {
    const s = fresh();
    const o = client('O', s);
    expect(await o.acquire('p1', opts)).toEqual({ kind: 'ok', gen: 1 });
    expect(await o.acquire('p2', opts)).toEqual({ kind: 'held', owner: 'p1', gen: 1 });
    expect(await o.renew('p1', 1, 30_000)).toEqual({ kind: 'ok', where: 'old' });
    expect(await o.renew('p1', 2, 30_000)).toEqual({ kind: 'lost' });
    expect(await o.release('p2', 1)).toEqual({ kind: 'notheld' });
    expect(await o.lookup()).toEqual({ kind: 'lease', owner: 'p1', gen: 1, where: 'old' });
    expect(await o.validate('p1', 1)).toEqual({ valid: true, reason: 'ok' });
    expect(await o.release('p1', 1)).toEqual({ kind: 'released', where: 'old' });
    expect(await o.acquire('p2', opts)).toEqual({ kind: 'ok', gen: 2 });
    expect(await o.validate('p1', 1)).toEqual({ valid: false, reason: 'stale' });
    expect(await o.knownGeneration()).toBe(2);
  });

  it('A and B fence against both keyspaces; B migrates an old lease on renew; C reads only the new pair', async () => {
    const s = fresh();
    const [a, b, c] = [client('A', s), client('B', s), client('C', s)];
    expect(await a.acquire('p1', opts)).toEqual({ kind: 'ok', gen: 1 });
    expect(await b.acquire('p2', opts)).toEqual({ kind: 'held', owner: 'p1', gen: 1 });
    // p1 upgraded to B: its renew tick moves the lease (same generation, no issuance).
    expect(await b.renew('p1', 1, 30_000)).toEqual({ kind: 'migrated', gen: 1 });
    expect(await snapshot(s)).toEqual({ oldLease: 'none', oldGen: ['1', false], newLease: ['p1:1', true], newGen: 'none' });
    expect(await a.acquire('p3', opts)).toEqual({ kind: 'held', owner: 'p1', gen: 1 });
    expect(await b.lookup()).toEqual({ kind: 'lease', owner: 'p1', gen: 1, where: 'new' });
    expect(await b.knownGeneration()).toBe(1);
    expect(await c.knownGeneration()).toBe(0);
    expect(await b.release('p1', 1)).toEqual({ kind: 'released', where: 'new' });
    expect(await b.acquire('p2', opts)).toEqual({ kind: 'ok', gen: 2 }); // max(old,new)+1 onto the new counter
    expect(await a.validate('p2', 2)).toEqual({ valid: true, reason: 'ok' });
    expect(await a.validate('p1', 1)).toEqual({ valid: false, reason: 'stale' });
    // B's release falls back to the old key, guarded: the wrong generation is a no-op.
    expect(await b.release('p2', 1)).toEqual({ kind: 'notheld' });
    await b.release('p2', 2);
    expect(await a.acquire('p1', opts)).toEqual({ kind: 'ok', gen: 3 });
    expect(await b.release('p1', 3)).toEqual({ kind: 'released', where: 'old' });
    const ops = operatorClient(conn, scripts);
    expect(await ops.backfill(s)).toBe(3);
    expect(await c.acquire('p1', opts)).toEqual({ kind: 'ok', gen: 4 });
    expect(await c.acquire('p2', opts)).toEqual({ kind: 'held', owner: 'p1', gen: 4 });
    expect(await ops.census([sessionKeys(s).oldLease])).toBe(0);
    expect(await ops.census([sessionKeys(s).newLease])).toBe(1);
    expect(await ops.reverseMerge(s)).toBe(4);
  });

  it('acquire never issues above MaxGen', async () => {
    const s = fresh();
    const c = client('C', s);
    for (let g = 1; g <= 2; g++) {
      expect(await c.acquire('p1', { ttlMs: 30_000, maxGen: 2 })).toEqual({ kind: 'ok', gen: g });
      await c.release('p1', g);
    }
    expect(await c.acquire('p1', { ttlMs: 30_000, maxGen: 2 })).toEqual({ kind: 'exhausted', maxGen: 2 });
    expect(await snapshot(s)).toMatchObject({ newLease: 'none', newGen: ['2', false] });
  });

  it('a wrong-type key is an error and leaves the keyspace untouched (read and validate before the first write)', async () => {
    for (const v of PHASES) {
      for (const bad of KEYS_OF[v].acquire) {
        const s = fresh();
        const k = sessionKeys(s);
        // A state where every write would happen: counters set, leases free; one key of the wrong type.
        await conn.set(k.oldGen, '1');
        await conn.set(k.newGen, '1');
        await conn.del(k[bad]);
        await conn.rpush(k[bad], 'x');
        const before = await snapshot(s);
        await expect(client(v, s).acquire('p1', opts)).rejects.toThrow(/WRONGTYPE/);
        expect(await snapshot(s)).toEqual(before);
      }
    }
    // Malformed values are refused the same way (FENCE_BADVALUE), also by the B migrate and the operator scripts.
    const s = fresh();
    const k = sessionKeys(s);
    await conn.set(k.oldLease, 'p1:1', 'PX', 30_000);
    await conn.set(k.newGen, 'garbage');
    const before = await snapshot(s);
    await expect(client('B', s).acquire('p2', opts)).rejects.toThrow(/FENCE_BADVALUE/);
    await expect(operatorClient(conn, scripts).backfill(s)).rejects.toThrow(/FENCE_BADVALUE/);
    await conn.set(k.newLease, 'not a lease');
    await expect(client('B', s).renew('p1', 1, 30_000)).rejects.toThrow(/FENCE_BADVALUE/);
    expect((await snapshot(s)).oldLease).toEqual(before.oldLease);
  });
});
