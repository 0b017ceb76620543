import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { nodeClient, startTopology, type Topology, type ValkeyClient } from '../../../src/valkey/index.js';
import { sessionKeys, type SessionRef } from '../../../src/systems/fencing/keys.js';
import { loadFencingScripts } from '../../../src/systems/fencing/scripts.js';
import { discoverSessions, observeKeyspace, type KeyspaceObservations } from '../../../src/systems/fencing/gate/observe.js';

const N = 3000;
const session = (i: number): SessionRef => ({ community: `c${i % 7}`, session: `s${i}` });
const scripts = loadFencingScripts();

/** Mixed states: some keys missing, leases live in either keyspace, counters apart. */
async function write(conn: ValkeyClient, n: number): Promise<void> {
  const pending: Promise<unknown>[] = [];
  for (let i = 0; i < n; i++) {
    const k = sessionKeys(session(i));
    if (i % 2 === 0) pending.push(conn.set(k.oldGen, String(i % 9)));
    if (i % 3 !== 0) pending.push(conn.set(k.newGen, String(i % 5)));
    if (i % 4 === 0) pending.push(conn.set(k.oldLease, `p1:${i % 9}`, 'PX', 120_000));
    if (i % 5 === 0) pending.push(conn.set(k.newLease, `p2:${i % 5}`, 'PX', 120_000));
  }
  await Promise.all(pending);
}

/** What the step driver's path sees, session by session. */
async function oneByOne(conn: ValkeyClient, sessions: readonly SessionRef[]): Promise<KeyspaceObservations> {
  let oldLeaseCensus = 0;
  let newLeaseCensus = 0;
  const counters = [];
  for (const s of sessions) {
    const o = await observeKeyspace(conn, scripts, [s]);
    oldLeaseCensus += o.oldLeaseCensus;
    newLeaseCensus += o.newLeaseCensus;
    counters.push(...o.counters);
  }
  return { sessions, oldLeaseCensus, newLeaseCensus, counters };
}

const READS = new Set(['evalsha', 'eval', 'get', 'type', 'scan', 'ping', 'info', 'cluster', 'command', 'config', 'client', 'select', 'readonly', 'script']);

/** Commands the nodes ran since CONFIG RESETSTAT (a census script's GET counts as get). */
async function commandsRun(nodes: readonly Redis[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const n of nodes) {
    for (const m of (await n.info('commandstats')).matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
      const name = m[1]!.split('|')[0]!;
      out.set(name, (out.get(name) ?? 0) + Number(m[2]));
    }
  }
  return out;
}

for (const spec of [{ kind: 'standalone' }, { kind: 'cluster', shards: 3 }] as const) {
  describe(`observeKeyspace in pipelined batches (${spec.kind})`, () => {
    let topo: Topology;
    let conn: ValkeyClient;
    let admins: Redis[];
    beforeAll(async () => {
      topo = await startTopology(spec, { provider: 'native' });
      conn = topo.client();
      admins = topo.nodes.filter((n) => n.role === 'primary').map((n) => nodeClient(n));
      await write(conn, N);
    });
    afterAll(async () => {
      conn?.disconnect();
      for (const a of admins ?? []) a.disconnect();
      await topo?.stop();
    });

    it('sees exactly what the one-session path sees, read-only, with a fresh script cache', async () => {
      const sessions = Array.from({ length: N }, (_, i) => session(i));
      for (const a of admins) {
        await a.script('FLUSH'); // the first pipeline meets NOSCRIPT on every node
        await a.config('RESETSTAT');
      }
      const batched = await observeKeyspace(conn, scripts, sessions);
      const ran = await commandsRun(admins);
      expect(
        [...ran.keys()].filter((c) => !READS.has(c)),
        JSON.stringify([...ran]),
      ).toEqual([]);
      expect(ran.get('get')).toBe(4 * N); // 2 census GETs + 2 counter GETs per session, each once
      expect(ran.get('eval') ?? 0).toBeLessThanOrEqual(2 * admins.length); // each script loaded once per node
      const expected = await oneByOne(conn, sessions);
      expect(batched).toEqual(expected);
      expect(batched.oldLeaseCensus).toBe(Math.ceil(N / 4));
      expect(batched.newLeaseCensus).toBe(Math.ceil(N / 5));
      const found = await discoverSessions(conn);
      const withKeys = sessions.filter((_, i) => i % 2 === 0 || i % 3 !== 0 || i % 4 === 0 || i % 5 === 0);
      expect(new Set(found.map((s) => `${s.community}:${s.session}`))).toEqual(new Set(withKeys.map((s) => `${s.community}:${s.session}`)));
    });

    it('names a wrong-type or malformed key read in a batch (KeyspaceValueError)', async () => {
      const sessions = Array.from({ length: N }, (_, i) => session(i));
      const k = sessionKeys(session(17));
      const l = sessionKeys(session(40)).oldLease;
      const saved = await conn.get(k.newGen);
      try {
        await conn.del(k.newGen);
        await conn.rpush(k.newGen, 'x'); // MGET would read this as nil: a counter of 0
        await expect(observeKeyspace(conn, scripts, sessions)).rejects.toMatchObject({ name: 'KeyspaceValueError', key: k.newGen, message: expect.stringMatching(/holds a list/) });
      } finally {
        await conn.del(k.newGen);
        if (saved !== null) await conn.set(k.newGen, saved);
      }
      try {
        await conn.set(l, 'nobody', 'PX', 120_000);
        await expect(observeKeyspace(conn, scripts, sessions)).rejects.toMatchObject({ name: 'KeyspaceValueError', key: l, message: expect.stringMatching(/is not a lease/) });
      } finally {
        await conn.set(l, 'p1:4', 'PX', 120_000);
      }
    });

    it.skipIf(spec.kind !== 'standalone')('reads a batch in a few writes to the socket, not four round trips per session', async () => {
      const sessions = Array.from({ length: N }, (_, i) => session(i));
      const socket = (conn as unknown as { stream: { write: (...a: unknown[]) => boolean } }).stream;
      const original = socket.write;
      let writes = 0;
      socket.write = function (this: unknown, ...a: unknown[]) {
        writes++;
        return original.apply(this, a);
      };
      try {
        await observeKeyspace(conn, scripts, sessions);
      } finally {
        socket.write = original;
      }
      expect(writes).toBeLessThan(N / 100);
    });
  });
}
