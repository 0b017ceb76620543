import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, Redis } from 'ioredis';
import { createClient, nodeClient, OutcomeUnknownError, startTopology, type Topology, type TopologySpec, type ValkeyClient } from '../../src/valkey/index.js';
import { evalScript, luaScript } from '../../src/valkey/scripts/index.js';
import { FaultProxy } from '../../src/valkey/fault-proxy.js';
import { delay, waitUntil } from '../../src/valkey/wait.js';

// Counts its own executions, then spins ARGV[1] loop rounds (≈0.5 s here; TIME cannot time it:
// it is frozen inside a script) so the connection can be cut while it runs.
const slowCounter = luaScript('slow-counter', ["local n = redis.call('INCR', KEYS[1])", 'local x = 0', 'for i = 1, tonumber(ARGV[1]) do x = x + i end', 'return n'].join('\n'));
const SPIN_ROUNDS = 50_000_000;
// With this threshold other clients get BUSY once a script has run 100 ms: proof that it is running.
const BUSY_THRESHOLD_MS = 100;
const SETTLE_MS = 2000;
const KEY = 'runs:{x}';

const isBusy = (err: unknown) => err instanceof Error && /^BUSY/.test(err.message);

/** Runs the slow script through `client`, cuts the proxied connection while it runs, and counts runs. */
async function cutMidScript(client: ValkeyClient, proxy: FaultProxy, node: Redis) {
  await node.del(KEY);
  // Loaded first, so what is cut is the EVALSHA that runs, not a NOSCRIPT round.
  await node.call('SCRIPT', 'LOAD', slowCounter.source);
  await node.config('SET', 'busy-reply-threshold', String(BUSY_THRESHOLD_MS));
  const call = evalScript(client, slowCounter, [KEY], [SPIN_ROUNDS]).then(
    (v) => ({ ok: true as const, value: v }),
    (e: unknown) => ({ ok: false as const, error: e }),
  );
  // Mid-script, deterministically: the node answers BUSY only while the script runs.
  await waitUntil(
    'the script to be running',
    () =>
      node.ping().then(
        () => false,
        (e: unknown) => isBusy(e),
      ),
    30_000,
    5,
  );
  expect(proxy.cutAll()).toBeGreaterThan(0);
  const outcome = await call;
  // Give a re-send time to happen (reconnect + another full run), then count on the node directly.
  await waitNotBusy(node);
  await delay(SETTLE_MS);
  await waitNotBusy(node);
  const runs = Number(await node.get(KEY));
  return { outcome, runs };
}

/** Waits until the node is not running a script (commands get BUSY meanwhile). */
async function waitNotBusy(node: Redis): Promise<void> {
  await waitUntil('the script to finish', async () => (await node.ping()) === 'PONG', 30_000);
}

type NatMap = Record<string, { host: string; port: number }>;

interface Case {
  readonly name: string;
  readonly spec: TopologySpec;
  /** The client under test (createClient) and ioredis with default options, both through the proxy. */
  readonly safe: (proxyPort: number, natMap: NatMap) => ValkeyClient;
  readonly defaults: (proxyPort: number, natMap: NatMap) => ValkeyClient;
}

const quiet = <C extends ValkeyClient>(c: C): C => (c.on('error', () => {}), c);

const cases: Case[] = [
  {
    name: 'standalone',
    spec: { kind: 'standalone' },
    safe: (port) => createClient({ kind: 'standalone', host: '127.0.0.1', port }),
    defaults: (port) => quiet(new Redis({ host: '127.0.0.1', port })),
  },
  {
    // The Cluster learns the node's real address from CLUSTER SLOTS; natMap sends it via the proxy.
    name: 'one-shard cluster',
    spec: { kind: 'cluster', shards: 1 },
    safe: (port, natMap) => createClient({ kind: 'cluster', seeds: [{ host: '127.0.0.1', port }] }, { natMap }),
    defaults: (port, natMap) => quiet(new Cluster([{ host: '127.0.0.1', port }], { natMap })),
  },
];

describe.each(cases)('a script whose reply was lost is never re-sent: $name', (c) => {
  let topo: Topology;
  let node: Redis;
  let proxy: FaultProxy;
  let natMap: NatMap;
  beforeAll(async () => {
    topo = await startTopology(c.spec, { provider: 'native' });
    const n = topo.nodes[0]!;
    node = nodeClient(n);
    proxy = await new FaultProxy(n).start();
    natMap = { [`${n.host}:${n.port}`]: { host: '127.0.0.1', port: proxy.port } };
  });
  afterAll(async () => {
    node?.disconnect();
    await proxy?.stop();
    await topo?.stop();
  });

  it('createClient: the caller gets OutcomeUnknownError and the script ran exactly once', async () => {
    const client = c.safe(proxy.port, natMap);
    try {
      const { outcome, runs } = await cutMidScript(client, proxy, node);
      expect(outcome.ok).toBe(false);
      expect(outcome.ok ? undefined : outcome.error).toBeInstanceOf(OutcomeUnknownError);
      expect(runs).toBe(1);
      // The client works again afterwards: no re-send does not mean a dead client.
      expect(await evalScript(client, slowCounter, [KEY], [0])).toBe(2);
    } finally {
      client.disconnect();
    }
  });

  it('control: ioredis defaults re-send it — it runs twice and the caller hears success', async () => {
    const client = c.defaults(proxy.port, natMap);
    try {
      const { outcome, runs } = await cutMidScript(client, proxy, node);
      expect(runs).toBe(2);
      expect(outcome).toEqual({ ok: true, value: 2 });
    } finally {
      client.disconnect();
    }
  });
});
