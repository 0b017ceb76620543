/**
 * The remedy's client hook on a real 3×1 cluster: WAIT reaches the node that ran the script (its
 * commandstats count it, the other primaries' do not); a WAIT short of its count reports the call
 * unknown although the script ran (the counter advanced on the primary), and the generation is not
 * handed out; without the option no WAIT is sent at all.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { closeClient, nodeClient, startTopology, OutcomeUnknownError, type Topology, type ValkeyClient } from '../../src/valkey/index.js';
import { loadFencingScripts, type FencingScripts } from '../../src/systems/fencing/scripts.js';
import { cClient } from '../../src/systems/fencing/clients/index.js';
import { newGenerationKey } from '../../src/systems/fencing/keys.js';
import { ReplicaUnconfirmedError } from '../../src/valkey/scripts/eval-confirmed.js';

let topology: Topology;
let scripts: FencingScripts;
let conn: ValkeyClient;
beforeAll(async () => {
  topology = await startTopology({ kind: 'cluster', shards: 3, replicasPerShard: 1 }, { provider: 'native' });
  scripts = loadFencingScripts();
  conn = topology.client();
});
afterAll(async () => {
  if (conn) await closeClient(conn);
  await topology?.stop();
});

const primaries = () => topology.nodes.filter((n) => n.role === 'primary');
async function waitCalls(): Promise<number[]> {
  return Promise.all(
    primaries().map(async (p) => {
      const c = nodeClient(p);
      try {
        return Number(/cmdstat_wait:calls=(\d+)/.exec(await c.info('commandstats'))?.[1] ?? 0);
      } finally {
        await closeClient(c);
      }
    }),
  );
}

it('WAIT goes to the node that ran the script, in the same pipeline; default off sends none', async () => {
  const before = await waitCalls();
  const session = { community: 'cf', session: 'a' };
  const plain = cClient({ conn, scripts, session });
  const r0 = await plain.acquire('p0', { ttlMs: 60_000, maxGen: 1000 });
  expect(r0.kind).toBe('ok');
  expect(await waitCalls()).toEqual(before);
  const confirmed = cClient({ conn, scripts, session, confirmReplicas: { replicas: 1, timeoutMs: 1000 } });
  expect(await confirmed.release('p0', (r0 as { gen: number }).gen)).toEqual({ kind: 'released', where: 'new' });
  for (let i = 1; i <= 5; i++) {
    const r = await confirmed.acquire(`p${i}`, { ttlMs: 60_000, maxGen: 1000 });
    expect(r).toEqual({ kind: 'ok', gen: i + 1 });
    await confirmed.release(`p${i}`, i + 1);
  }
  const delta = (await waitCalls()).map((n, i) => n - before[i]!);
  // 11 calls on the session's one slot, plus the release's first EVALSHA (NOSCRIPT: the pair is
  // sent again as EVAL + WAIT): one primary saw 12 WAITs, the others none.
  expect(delta.sort((a, b) => a - b)).toEqual([0, 0, 12]);
});

it('WAIT short of its count: unknown (an OutcomeUnknownError), though the script ran on the primary', async () => {
  const session = { community: 'cf', session: 'b' };
  const c = cClient({ conn, scripts, session, confirmReplicas: { replicas: 2, timeoutMs: 150 } });
  const t = Date.now();
  const err = await c.acquire('p1', { ttlMs: 60_000, maxGen: 1000 }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ReplicaUnconfirmedError);
  expect(err).toBeInstanceOf(OutcomeUnknownError);
  expect((err as ReplicaUnconfirmedError).confirmed).toBe(1);
  expect(Date.now() - t).toBeGreaterThanOrEqual(140);
  expect(await conn.get(newGenerationKey(session))).toBe('1');
});
