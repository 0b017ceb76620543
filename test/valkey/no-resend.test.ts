import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, Redis } from 'ioredis';
import { createClient, OutcomeUnknownError, startTopology, type Topology, type TopologySpec, type ValkeyClient } from '../../src/valkey/index.js';
import { evalScript, luaScript } from '../../src/scripts/index.js';
import { FaultProxy, isEvalRequest } from '../../src/valkey/fault-proxy.js';
import { delay, waitUntil } from '../../src/valkey/wait.js';

// Counts its own executions, then spins ARGV[1] loop rounds so the connection can be cut while it
// runs. (TIME cannot time the spin: it is frozen inside a script.)
const slowCounter = luaScript(
  'slow-counter',
  ["local n = redis.call('INCR', KEYS[1])", 'local x = 0', 'for i = 1, tonumber(ARGV[1]) do x = x + i end', 'return n'].join('\n'),
);
const SPIN_ROUNDS = 20_000_000;
const SETTLE_MS = 2000;
const CUT_AFTER_MS = 50;
const KEY = 'runs:{x}';

/** Runs the slow script through `client`, cuts the proxied connection mid-script, and reports. */
async function cutMidScript(client: ValkeyClient, proxy: FaultProxy, node: Redis) {
  await node.del(KEY);
  // Load it first so the cut hits the EVALSHA that runs, not a NOSCRIPT round.
  await node.call('SCRIPT', 'LOAD', slowCounter.source);
  const cut = proxy.cutAfter(isEvalRequest, CUT_AFTER_MS);
  const call = evalScript(client, slowCounter, [KEY], [SPIN_ROUNDS]).then(
    (v) => ({ ok: true as const, value: v }),
    (e: unknown) => ({ ok: false as const, error: e }),
  );
  await cut;
  const outcome = await call;
  // Give any re-send time to happen (reconnect + script spin), then count on the server directly.
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
    node = createClient({ kind: 'standalone', host: n.host, port: n.port }) as Redis;
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
