import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplyError } from 'ioredis';
import { createClient, OutcomeUnknownError, startTopology, type Topology } from '../../src/valkey/index.js';
import { evalScript, isServerReply, luaScript } from '../../src/valkey/scripts/index.js';

const incr = luaScript('incr', "return redis.call('INCR', KEYS[1])");

describe('evalScript on a standalone node', () => {
  let topo: Topology;
  beforeAll(async () => {
    topo = await startTopology({ kind: 'standalone' }, { provider: 'native' });
  });
  afterAll(async () => {
    await topo?.stop();
  });

  it('passes a script error through as the server reply it is', async () => {
    const c = topo.client();
    try {
      const boom = luaScript('boom', "return redis.call('INCR', KEYS[1], 'extra')");
      const err = await evalScript(c, boom, ['k'], []).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ReplyError);
      expect(isServerReply(err)).toBe(true);
      expect(err).not.toBeInstanceOf(OutcomeUnknownError);
    } finally {
      c.disconnect();
    }
  });

  it('100 concurrent calls after SCRIPT FLUSH all run exactly once (each falls back to EVAL)', async () => {
    const c = topo.client();
    try {
      await c.call('SCRIPT', 'FLUSH');
      const results = await Promise.all(Array.from({ length: 100 }, () => evalScript(c, incr, ['many'], [])));
      expect(new Set(results).size).toBe(100);
      expect(await c.get('many')).toBe('100');
    } finally {
      c.disconnect();
    }
  });

  it('a closed client is a plain error: nothing was sent', async () => {
    const c = topo.client();
    const ended = new Promise((r) => c.once('end', r));
    await c.quit();
    await ended;
    const err = await evalScript(c, incr, ['k'], []).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(OutcomeUnknownError);
    expect((err as Error).message).toMatch(/nothing was sent/);
  });
});

it('the server dying mid-script is OutcomeUnknownError', async () => {
  const t = await startTopology({ kind: 'standalone' }, { provider: 'native' });
  const n = t.nodes[0]!;
  const c = createClient({ kind: 'standalone', host: n.host, port: n.port });
  try {
    const spin = luaScript('spin', "redis.call('INCR', KEYS[1]); local x = 0; for i = 1, 200000000 do x = x + i end; return x");
    const call = evalScript(c, spin, ['k'], []).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 100));
    process.kill(n.pid!, 'SIGKILL');
    expect(await call).toBeInstanceOf(OutcomeUnknownError);
  } finally {
    c.disconnect();
    await t.stop();
  }
});
