// The design's "Required tests" — each a test of its own, on a real standalone Valkey and a real
// 3-shard cluster. Every check reads the replicas' answers and Valkey's keys, never the test's own notes.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PauseReplica, pauseKeys, setPaused, type Delivery, type PauseKeys, type PauseReplicaOptions, type PauseState } from '../../src/systems/pause/index.js';
import { createClient, startTopology, type Topology, type ValkeyClient } from '../../src/valkey/index.js';
import { boundMs, recordTiming, type BoundName } from '../support/bounds.js';

const RECONCILE_NEVER = 3_600_000;

for (const spec of [{ kind: 'standalone' as const }, { kind: 'cluster' as const, shards: 3 }]) {
  describe(`pause snapshot on ${spec.kind}`, () => {
    let topo: Topology;
    let writer: ValkeyClient;
    const open: PauseReplica[] = [];
    let n = 0;
    let keys: PauseKeys;
    beforeAll(async () => {
      topo = await startTopology(spec, { provider: 'native' });
      writer = topo.client();
    }, 60_000);
    afterAll(async () => {
      await writer?.quit();
      await topo?.stop();
    });
    // Each test its own flag (no state carried between tests).
    const fresh = () => (keys = pauseKeys(topo.keyPrefix, `t${n++}`));
    afterEach(async () => {
      await Promise.all(open.splice(0).map((r) => r.close()));
    });
    const replica = async (o: Partial<PauseReplicaOptions> = {}) => {
      const r = await PauseReplica.open({ keys, client: () => topo.client(), reconcileMs: RECONCILE_NEVER, maxAgeMs: 60_000, ...o });
      open.push(r);
      return r;
    };
    const until = async (what: () => boolean, bound: BoundName = 'pause-event') => {
      const t0 = Date.now();
      while (!what()) {
        if (Date.now() - t0 > boundMs(bound)) return false;
        await sleep(5);
      }
      recordTiming(bound, Date.now() - t0);
      return true;
    };

    it('startup does not become ready until an initial snapshot exists', async () => {
      fresh();
      await setPaused(writer, keys, true);
      // The initial load fails (the version key holds garbage): not ready, and the hot read fails closed.
      await writer.set(keys.version, 'garbage');
      const r = new PauseReplica({ keys, client: () => topo.client(), reconcileMs: RECONCILE_NEVER, maxAgeMs: 60_000 });
      open.push(r);
      await expect(r.start()).rejects.toThrow(/not a version/);
      expect(r.status()).toMatchObject({ ready: false, version: null });
      expect(r.read()).toBe('unavailable');
      await writer.set(keys.version, '1');
      await r.start();
      expect(r.status()).toMatchObject({ ready: true, version: 1, paused: true });
      expect(r.read()).toBe('paused');
    });

    it('all simulated replicas observe a pause event (by the event, not by reconciliation)', async () => {
      fresh();
      const fleet = await Promise.all([0, 1, 2, 3].map(() => replica()));
      expect(fleet.map((r) => r.read())).toEqual(['running', 'running', 'running', 'running']);
      const { state, published } = await setPaused(writer, keys, true);
      expect(published).toBe(true);
      expect(await until(() => fleet.every((r) => r.read() === 'paused'))).toBe(true);
      expect(fleet.map((r) => r.status().version)).toEqual([state.version, state.version, state.version, state.version]);
      expect(fleet.every((r) => r.status().reconciles === 0)).toBe(true);
    });

    it('an intentionally dropped event is repaired by reconciliation', async () => {
      fresh();
      const dropAll: Delivery = () => {};
      const r = await replica({ delivery: dropAll, reconcileMs: 150, maxAgeMs: 10_000 });
      expect(r.read()).toBe('running');
      await setPaused(writer, keys, true);
      await sleep(20);
      // The event was dropped: by the replica's count, not by its state 20 ms later (under two
      // burners the 150 ms reconciliation sometimes came first, once in ten quick starts).
      expect(r.status().eventsApplied).toBe(0);
      expect(await until(() => r.read() === 'paused', 'pause-repair')).toBe(true);
      expect(r.status().reconciles).toBeGreaterThan(0);
      expect(r.status().eventsApplied).toBe(0);
      expect(await writer.get(keys.paused)).toBe('1');
    });

    it('out-of-order versions cannot revert state', async () => {
      fresh();
      // Hold every event, then deliver them newest first. (On a cluster a PUBLISH may reach this
      // subscriber through another node, so the arrival order itself is not guaranteed.)
      const held: { version: number; apply: () => void }[] = [];
      const r = await replica({ delivery: (e, apply) => void held.push({ version: e.version, apply }) });
      const versions: number[] = [];
      await setPaused(writer, keys, true);
      await setPaused(writer, keys, false);
      await setPaused(writer, keys, true);
      expect(await until(() => held.length === 3)).toBe(true);
      for (const { apply } of held.sort((a, b) => b.version - a.version)) {
        apply();
        versions.push(r.status().version!);
      }
      expect(versions).toEqual([3, 3, 3]); // v3 applied, v2 and v1 ignored
      expect(r.read()).toBe('paused');
      expect(r.status().eventsIgnored).toBe(2);
    });

    it('concurrent hot reads cause no refresh calls', async () => {
      fresh();
      const r = await replica();
      const calls = async () => {
        let total = 0;
        for (const node of topo.nodes.filter((x) => x.role === 'primary')) {
          const c = createClient({ kind: 'standalone', host: node.host, port: node.port });
          const info = await c.info('commandstats');
          c.disconnect();
          total += Number(/cmdstat_mget:calls=(\d+)/.exec(info)?.[1] ?? 0) + Number(/cmdstat_get:calls=(\d+)/.exec(info)?.[1] ?? 0);
        }
        return total;
      };
      const before = await calls();
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          for (let i = 0; i < 100_000; i++) if (r.read() === 'unavailable') throw new Error('unavailable');
          await sleep(0);
        }),
      );
      expect(await calls()).toBe(before);
    });

    it('stale snapshots fail closed', async () => {
      fresh();
      // Every reconciliation fails (the version key turns into garbage): the snapshot ages past the bound.
      const r = await replica({ reconcileMs: 50, maxAgeMs: 300 });
      expect(r.read()).toBe('running');
      await writer.set(keys.version, 'garbage');
      expect(await until(() => r.read() === 'unavailable', 'pause-repair')).toBe(true);
      expect(r.status().reconcileFailures).toBeGreaterThan(0);
      // The age flag's timer counts from the loop's cached whole-millisecond clock: it may fire up to
      // 1 ms before performance.now() says 300 ms passed (seen: 299.6 ms, 1 run of 4).
      expect(r.status().ageMs!).toBeGreaterThan(299);
      // and recovers once Valkey answers sensibly again
      await writer.set(keys.version, '5');
      expect(await until(() => r.read() === 'running', 'pause-repair')).toBe(true);
    });

    it('a failed Valkey write is neither published nor exposed locally', async () => {
      fresh();
      const r = await replica();
      const seen: PauseState[] = [];
      const watcher = await replica({ delivery: (e, apply) => (seen.push(e), apply()) });
      // A user that may not INCR: EXEC aborts the whole transaction (EXECABORT), nothing is written.
      const admin = topo.nodes.filter((x) => x.role === 'primary');
      for (const node of admin) {
        const c = createClient({ kind: 'standalone', host: node.host, port: node.port });
        await c.call('ACL', 'SETUSER', 'noincr', 'on', '>pw', '~*', '&*', '+@all', '-incr');
        c.disconnect();
      }
      const limited =
        spec.kind === 'standalone'
          ? createClient({ kind: 'standalone', host: admin[0]!.host, port: admin[0]!.port, username: 'noincr', password: 'pw' })
          : createClient({ kind: 'cluster', seeds: admin.map((x) => ({ host: x.host, port: x.port })), username: 'noincr', password: 'pw' });
      try {
        await expect(setPaused(limited, keys, true)).rejects.toThrow();
      } finally {
        limited.disconnect();
      }
      await sleep(100);
      expect(await writer.get(keys.paused)).toBeNull();
      expect(await writer.get(keys.version)).toBeNull();
      expect(seen).toEqual([]);
      expect([r.read(), watcher.read()]).toEqual(['running', 'running']);
    });

    it('close stops the reconciler: no MGET after close', async () => {
      fresh();
      const r = await replica({ reconcileMs: 20 });
      await sleep(100);
      await r.close();
      open.splice(open.indexOf(r), 1);
      const before = r.status().reconciles + r.status().reconcileFailures;
      await sleep(150);
      expect(r.status().reconciles + r.status().reconcileFailures).toBe(before);
      expect(r.read()).toBe('unavailable');
    });
  });
}
