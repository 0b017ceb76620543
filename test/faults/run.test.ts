/**
 * One fencing property run (executeRun) meeting a fault, on a node of the test's own:
 *  - a reply lost while the server runs the pod's acquire (the connection cut mid-script): the run
 *    throws an InfrastructureFault (connection-lost) instead of reporting the Conformance mismatch
 *    the unknown outcome leaves behind — a healthy-looking failure right after a fault;
 *  - the door failing at the start of a run: every client the run opened is closed anyway.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { closeClient, createClient, startTopology, type Topology, type ValkeyClient } from '../../src/valkey/index.js';
import { FaultProxy } from '../../src/valkey/fault-proxy.js';
import { waitUntil } from '../../src/valkey/wait.js';
import { loadFencingScripts } from '../../src/systems/fencing/scripts.js';
import { rewriteLine } from '../../src/systems/fencing/patch.js';
import { DEFAULT_BOUNDS } from '../../src/systems/fencing/state.js';
import type { DoorBackend } from '../../src/systems/fencing/door.js';
import { InfrastructureFault } from '../../src/valkey/fault.js';
import { ALL_CHECKS } from '../../properties/fencing/checks.js';
import { executeRun, type RunContext } from '../../properties/fencing/run.js';
import { waitWithin } from '../support/bounds.js';

// The real O acquire, slowed after its writes (≈0.5 s of arithmetic before the reply): the writes
// happen, the connection is cut while the script runs, the reply is lost.
const SPIN = 'local spin = 0; for i = 1, 50000000 do spin = spin + i end';
const slowed = loadFencingScripts({
  lua: (name, src) => (name === 'O/acquire' ? rewriteLine(name, "return { 'ok', g }", (l) => `${SPIN}\n${l}`)!(name, src) : src),
});
const isBusy = (err: unknown) => err instanceof Error && /^BUSY/.test(err.message);

let topo: Topology;
let node: Redis;
beforeAll(async () => {
  topo = await startTopology({ kind: 'standalone' }, { provider: 'native' });
  node = createClient({ kind: 'standalone', host: topo.nodes[0]!.host, port: topo.nodes[0]!.port }) as Redis;
  await node.config('SET', 'busy-reply-threshold', '100');
});
afterAll(async () => {
  if (node) await closeClient(node);
  await topo?.stop();
});

/** The topology, with every client it hands out recorded (and optionally reached through a proxy). */
function recording(port?: number): { topology: Topology; clients: ValkeyClient[] } {
  const clients: ValkeyClient[] = [];
  const topology: Topology = {
    ...topo,
    client: () => {
      const c = port === undefined ? topo.client() : createClient({ kind: 'standalone', host: '127.0.0.1', port });
      clients.push(c);
      return c;
    },
  };
  return { topology, clients };
}

describe('executeRun meets a fault', () => {
  it('a reply lost mid-acquire is an InfrastructureFault, not a Conformance counterexample', async () => {
    const proxy = await new FaultProxy(topo.nodes[0]!).start();
    try {
      const { topology, clients } = recording(proxy.port);
      const ctx: RunContext = { topology, scripts: slowed, bounds: DEFAULT_BOUNDS, checks: ALL_CHECKS };
      const run = executeRun(
        ctx,
        [
          { kind: 'acquire', p: 'p1' },
          { kind: 'release', p: 'p1' },
        ],
        'release',
      ).then(
        (r) => ({ ok: true as const, r }),
        (error: unknown) => ({ ok: false as const, error }),
      );
      await waitUntil('the acquire to be running', () => node.ping().then(() => false, isBusy), 30_000, 5);
      expect(proxy.cutAll()).toBeGreaterThan(0);
      const out = await run;
      expect(out.ok, out.ok ? JSON.stringify(out.r.failure) : '').toBe(false);
      const err = (out as { error: unknown }).error;
      expect(err).toBeInstanceOf(InfrastructureFault);
      expect((err as InfrastructureFault).kind).toBe('connection-lost');
      expect((err as InfrastructureFault).message).toMatch(/AcquireO/);
      expect(clients.length).toBeGreaterThan(0);
      await waitWithin('clients-closed-after-fault', 'every client of the run to be closed', async () => clients.every((c) => c.status === 'end'), 20);
    } finally {
      await waitUntil('the script to finish', async () => (await node.ping()) === 'PONG', 30_000);
      await proxy.stop();
    }
  });

  it('the door failing as a run starts: the run still closes every client it opened', async () => {
    const { topology, clients } = recording();
    const dead = () => Promise.reject(new Error('Connection is closed.'));
    const door = { askRedirects: dead, reset: dead, close: async () => {}, keyslotCheck: dead, enter: dead, revert: dead, enable: dead, migrating: false } as unknown as DoorBackend;
    const ctx: RunContext = { topology, door, scripts: loadFencingScripts(), bounds: DEFAULT_BOUNDS, checks: ALL_CHECKS };
    await expect(executeRun(ctx, [{ kind: 'acquire', p: 'p1' }], 'release')).rejects.toThrow(/Connection is closed/);
    expect(clients.length).toBeGreaterThan(0);
    // closeClient ends with disconnect(): status 'end' once the socket is gone.
    await waitWithin('clients-closed-after-fault', 'every client of the run to be closed', async () => clients.every((c) => c.status === 'end'), 20);
  });
});
