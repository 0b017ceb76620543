/**
 * classifyFault on real errors from real Valkey: what is a fault (NOPERM, a killed connection, a
 * dead server, a silent endpoint) and what is a genuine result that must stay one (a script's own
 * error reply, CROSSSLOT, WRONGTYPE).
 */
import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { closeClient, createClient, nodeClient, OutcomeUnknownError, startTopology, type Topology } from '../../src/valkey/index.js';
import { evalScript, luaScript } from '../../src/valkey/scripts/index.js';
import { asInfrastructureFault, classifyFault, FaultLatch, InfrastructureFault } from '../../src/valkey/fault.js';

const SOURCE_MARK = 'fencecheck-secret-lua-source-marker';
const boom = luaScript('boom', `-- ${SOURCE_MARK}\nreturn redis.error_reply('FENCE_BADVALUE lease holds garbage')`);
const spin = luaScript('spin', "redis.call('INCR', KEYS[1]); local x = 0; for i = 1, 300000000 do x = x + i end; return x");
const catchIt = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );

describe('classifyFault on a standalone node', () => {
  let topo: Topology;
  let admin: Redis;
  beforeAll(async () => {
    topo = await startTopology({ kind: 'standalone' }, { provider: 'native' });
    admin = nodeClient(topo.nodes[0]!);
  });
  afterAll(async () => {
    if (admin) await closeClient(admin);
    await topo?.stop();
  });

  it("a script's own error reply and WRONGTYPE are results, not faults", async () => {
    const c = topo.client();
    try {
      expect(classifyFault(await catchIt(evalScript(c, boom, ['k'], [])))).toBeNull();
      await c.set('str', 'x');
      const wrongType = await catchIt(c.hget('str', 'f'));
      expect(String((wrongType as Error).message)).toMatch(/^WRONGTYPE/);
      expect(classifyFault(wrongType)).toBeNull();
    } finally {
      await closeClient(c);
    }
  });

  it('NOPERM (EVALSHA, SCRIPT LOAD) is a permission fault whose reason carries no Lua source', async () => {
    const c = topo.client();
    try {
      await admin.call('ACL', 'SETUSER', 'default', '-evalsha', '-eval', '-script');
      const viaEval = await catchIt(evalScript(c, boom, ['k'], []));
      const viaLoad = await catchIt(c.script('LOAD', boom.source));
      // The ReplyError itself carries the source (ioredis attaches the command's arguments).
      expect(JSON.stringify((viaLoad as { command?: unknown }).command)).toContain(SOURCE_MARK);
      for (const err of [viaEval, viaLoad]) {
        expect(classifyFault(err)).toMatchObject({ kind: 'permission', reason: expect.stringMatching(/^NOPERM/) });
        const f = asInfrastructureFault(err)!;
        expect(f).toBeInstanceOf(InfrastructureFault);
        expect(`${f.message} ${f.stack} ${JSON.stringify(f)} ${JSON.stringify(f.fault)}`).not.toContain(SOURCE_MARK);
        expect(f.message.split('\n')).toHaveLength(1);
      }
    } finally {
      await admin.call('ACL', 'SETUSER', 'default', '+@all');
      await closeClient(c);
    }
  });

  it("a script's own call refused by the ACL (ERR ACL failure in script) is a permission fault, not a result", async () => {
    const c = topo.client();
    const del = luaScript('del', "return redis.call('DEL', KEYS[1])");
    try {
      await admin.call('ACL', 'SETUSER', 'default', '-del');
      const err = await catchIt(evalScript(c, del, ['k'], []));
      expect(String((err as Error).message)).toMatch(/^ERR ACL failure in script: .*'del'/);
      expect(classifyFault(err)).toMatchObject({ kind: 'permission', reason: expect.stringMatching(/ACL failure in script/) });
    } finally {
      await admin.call('ACL', 'SETUSER', 'default', '+@all');
      await closeClient(c);
    }
  });

  it('CLIENT KILL under a command: connection-lost (also inside OutcomeUnknownError)', async () => {
    const c = topo.client() as Redis;
    try {
      const id = await c.client('ID');
      // A blocked command, and a script queued behind it on the same connection (its outcome unknown).
      const blocked = catchIt(c.blpop('never', 0));
      const queued = catchIt(evalScript(c, boom, ['k'], []));
      await new Promise((r) => setTimeout(r, 50));
      await admin.call('CLIENT', 'KILL', 'ID', String(id));
      expect(classifyFault(await blocked)).toMatchObject({ kind: 'connection-lost' });
      const unknown = await queued;
      expect(unknown).toBeInstanceOf(OutcomeUnknownError);
      expect(classifyFault(unknown)).toMatchObject({ kind: 'connection-lost' });
    } finally {
      await closeClient(c);
    }
  });

  it('CLIENT KILL of a MULTI pipeline held by a write pause: connection-lost (ioredis aborts the rest)', async () => {
    const c = topo.client() as Redis;
    try {
      const id = await c.client('ID');
      await admin.call('CLIENT', 'PAUSE', '5000', 'WRITE');
      const tx = catchIt(c.multi().set('paused:x', '1').incr('paused:v').exec());
      await new Promise((r) => setTimeout(r, 50));
      await admin.call('CLIENT', 'KILL', 'ID', String(id));
      const err = await tx;
      expect(classifyFault(err)).toMatchObject({ kind: 'connection-lost' });
    } finally {
      await admin.call('CLIENT', 'UNPAUSE');
      await closeClient(c);
    }
  });
});

it('the server SIGKILLed mid-script: OutcomeUnknownError and every later command are faults', async () => {
  const t = await startTopology({ kind: 'standalone' }, { provider: 'native' });
  const n = t.nodes[0]!;
  const c = createClient({ kind: 'standalone', host: n.host, port: n.port });
  try {
    const call = catchIt(evalScript(c, spin, ['k'], []));
    await new Promise((r) => setTimeout(r, 100));
    process.kill(n.pid!, 'SIGKILL');
    const lost = await call;
    expect(lost).toBeInstanceOf(OutcomeUnknownError);
    expect(classifyFault(lost)?.kind).toBe('connection-lost');
    expect(classifyFault(await catchIt(c.get('x')))?.kind).toMatch(/connection-lost|server-gone/);
    const fresh = nodeClient(n);
    try {
      expect(classifyFault(await catchIt(fresh.get('x')))?.kind).toMatch(/connection-lost|server-gone/);
    } finally {
      await closeClient(fresh);
    }
  } finally {
    await closeClient(c);
    await t.stop();
  }
});

it('a silent endpoint: the command timeout is a timeout fault', async () => {
  const sockets: Socket[] = [];
  const server = createServer((s) => sockets.push(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const saved = process.env.FENCECHECK_COMMAND_TIMEOUT_MS;
  process.env.FENCECHECK_COMMAND_TIMEOUT_MS = '300';
  const c = createClient({ kind: 'standalone', host: '127.0.0.1', port });
  try {
    const err = await catchIt(c.get('x'));
    const f = classifyFault(err);
    expect(f?.kind, String(err)).toBe('timeout');
  } finally {
    if (saved === undefined) delete process.env.FENCECHECK_COMMAND_TIMEOUT_MS;
    else process.env.FENCECHECK_COMMAND_TIMEOUT_MS = saved;
    c.disconnect();
    sockets.forEach((s) => s.destroy());
    await new Promise((r) => server.close(r));
  }
});

it('CROSSSLOT on a cluster is a result (a T3 finding), not a fault', async () => {
  const t = await startTopology({ kind: 'cluster', shards: 1 }, { provider: 'native' });
  const c = t.client();
  try {
    const two = luaScript('two', "return redis.call('MGET', KEYS[1], KEYS[2])");
    const err = await catchIt(evalScript(c, two, ['{a}x', '{b}y'], []));
    expect(String((err as Error).message)).toMatch(/CROSSSLOT/);
    expect(classifyFault(err)).toBeNull();
  } finally {
    await closeClient(c);
    await t.stop();
  }
});

it('FaultLatch: the first fault wins, and a later non-fault error is reported as that fault', () => {
  const latch = new FaultLatch();
  expect(() => latch.throwIfFaulted()).not.toThrow();
  const plain = new Error('Conformance: real keyspace differs');
  expect(latch.capture(plain)).toBe(plain);
  const first = latch.capture(new Error('Connection is closed.'));
  expect(first).toBeInstanceOf(InfrastructureFault);
  expect(latch.capture(new Error('read ECONNRESET'))).toBe(first);
  expect(latch.capture(plain)).toBe(first);
  expect(() => latch.throwIfFaulted()).toThrow(first as Error);
});
