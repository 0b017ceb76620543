import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { closeClient, createClient, OutcomeUnknownError, startTopology, type Topology } from '../../src/valkey/index.js';
import { FaultProxy } from '../../src/valkey/fault-proxy.js';
import { waitUntil } from '../../src/valkey/wait.js';
import { createFencingDriver } from '../../src/systems/fencing/driver.js';
import { loadFencingScripts } from '../../src/systems/fencing/scripts.js';
import { fencingClient } from '../../src/systems/fencing/clients/index.js';
import { rewriteLine } from '../../src/systems/fencing/patch.js';
import { sessionKeys } from '../../src/systems/fencing/keys.js';

// The real acquire scripts, slowed after their writes (≈0.5 s of arithmetic before the reply) so the
// connection can be cut while the server runs them: the writes happen, the reply is lost.
const SPIN = 'local spin = 0; for i = 1, 50000000 do spin = spin + i end';
const slowed = loadFencingScripts({
  lua: (name, src) => (name.endsWith('/acquire') ? rewriteLine(name, "return { 'ok', g }", (l) => `${SPIN}\n${l}`)!(name, src) : src),
});
const isBusy = (err: unknown) => err instanceof Error && /^BUSY/.test(err.message);

let topo: Topology;
let proxy: FaultProxy;
let node: Redis;

beforeAll(async () => {
  topo = await startTopology({ kind: 'standalone' });
  const n = topo.nodes[0]!;
  proxy = await new FaultProxy({ host: n.host, port: n.port }).start();
  node = createClient({ kind: 'standalone', host: n.host, port: n.port }) as Redis;
  // Other clients get BUSY once a script has run 100 ms: the proof that it is running now.
  await node.config('SET', 'busy-reply-threshold', '100');
});
afterAll(async () => {
  if (node) await closeClient(node);
  await proxy?.stop();
  await topo?.stop();
});

async function cutWhileRunning<T>(call: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  const settled = call.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  await waitUntil('the acquire to be running', () => node.ping().then(() => false, isBusy), 30_000, 5);
  expect(proxy.cutAll()).toBeGreaterThan(0);
  const out = await settled;
  await waitUntil('the script to finish', async () => (await node.ping()) === 'PONG', 30_000);
  return out;
}

describe('a connection killed in the middle of an acquire', () => {
  it('the client reports an ambiguous outcome and never re-sends: no generation is issued twice', async () => {
    // Through the proxy: the pod's connection is the one that dies.
    const viaProxy: Topology = { ...topo, client: () => createClient({ kind: 'standalone', host: '127.0.0.1', port: proxy.port }) };
    const driver = createFencingDriver(viaProxy, { scripts: slowed, session: { community: 'fault', session: 's1' } });
    const k = sessionKeys(driver.session);
    try {
      const pending = driver.apply({ type: 'AcquireO', p: 'p1' });
      const out = await cutWhileRunning(pending);
      expect(out.ok).toBe(true);
      const step = (out as { value: Awaited<typeof pending> }).value;
      expect(step.status).toBe('ambiguous');
      expect(step.issued).toBe(1);
      // Executed exactly once: a re-send would have issued 2.
      await new Promise((r) => setTimeout(r, 1500));
      expect(await node.get(k.oldGen)).toBe('1');
      expect(await node.get(k.oldLease)).toBe('p1:1');
      // The pod does not know it holds the lease; the next issuance is still fresh.
      expect(driver.remembered('p1')).toBeUndefined();
      await node.del(k.oldLease);
      const next = await driver.apply({ type: 'AcquireO', p: 'p2' });
      expect(next).toMatchObject({ status: 'applied', issued: 2 });
      expect((await driver.observe()).monoOk).toBe(true);
    } finally {
      await driver.close();
    }
  });

  it('the typed client surfaces OutcomeUnknownError itself', async () => {
    const conn = createClient({ kind: 'standalone', host: '127.0.0.1', port: proxy.port });
    const session = { community: 'fault', session: 's2' };
    try {
      const out = await cutWhileRunning(fencingClient('C', { conn, scripts: slowed, session }).acquire('p1', { ttlMs: 30_000, maxGen: 4 }));
      expect(out.ok).toBe(false);
      expect((out as { error: unknown }).error).toBeInstanceOf(OutcomeUnknownError);
      await new Promise((r) => setTimeout(r, 1500));
      expect(await node.get(sessionKeys(session).newGen)).toBe('1');
    } finally {
      await closeClient(conn);
    }
  });
});
