import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTopology, type Topology } from '../../src/valkey/index.js';
import type { Redis } from 'ioredis';
import { committedSnapshot, snapshotFromNode, snapshotJson } from '../../src/luacheck/keyspecs.js';
import { keysOfArgv } from '../../src/luacheck/key-positions.js';

/**
 * The committed key-spec snapshot is the installed server's: read COMMAND (every command's
 * COMMAND INFO) from a real valkey-server, normalize, compare. Then the interpreter's key positions
 * against the server's own COMMAND GETKEYS on sample argument vectors.
 */
let topology: Topology;
let client: Redis;

beforeAll(async () => {
  topology = await startTopology({ kind: 'standalone' }, { provider: 'native' });
  client = topology.client() as Redis;
});
afterAll(async () => {
  client?.disconnect();
  await topology?.stop();
});

const SAMPLES: readonly (readonly string[])[] = [
  ['GET', 'k'],
  ['SET', 'k', 'v', 'PX', '100', 'GET'],
  ['MSET', 'a', '1', 'b', '2', 'c', '3'],
  ['DEL', 'a', 'b', 'c'],
  ['BLPOP', 'a', 'b', '0'],
  ['BLMPOP', '0', '2', 'a', 'b', 'LEFT', 'COUNT', '3'],
  ['LMPOP', '1', 'a', 'RIGHT'],
  ['ZUNIONSTORE', 'd', '2', 'a', 'b', 'WEIGHTS', '1', '2'],
  ['ZINTERCARD', '2', 'a', 'b', 'LIMIT', '1'],
  ['XGROUP', 'CREATE', 's', 'g', '$', 'MKSTREAM'],
  ['XGROUP', 'DESTROY', 's', 'g'],
  ['XINFO', 'STREAM', 's'],
  ['OBJECT', 'ENCODING', 'k'],
  ['MEMORY', 'USAGE', 'k'],
  ['GEORADIUS', 'g', '15', '37', '200', 'km', 'STORE', 'dst'],
  ['GEORADIUS', 'g', '15', '37', '200', 'km', 'STOREDIST', 'dst'],
  ['GEORADIUS', 'g', '15', '37', '200', 'km', 'STORE', 'd1', 'STOREDIST', 'd2'],
  ['XREAD', 'COUNT', '1', 'STREAMS', 's1', 's2', '0', '0'],
  ['XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', 's1', '>'],
  ['RENAME', 'a', 'b'],
  ['LMOVE', 'a', 'b', 'LEFT', 'RIGHT'],
  ['BITOP', 'AND', 'd', 'a', 'b'],
  ['EVAL', 'return 1', '2', 'a', 'b', 'x'],
  ['FCALL', 'f', '1', 'a', 'x'],
  ['SINTERCARD', '2', 'a', 'b'],
  ['PFMERGE', 'd', 'a', 'b'],
  ['COPY', 'a', 'b', 'REPLACE'],
  ['GEOSEARCHSTORE', 'd', 'src', 'FROMLONLAT', '15', '37', 'BYRADIUS', '200', 'km'],
];

describe('key specs snapshot vs the installed valkey-server', () => {
  it('the committed snapshot equals what the server reports (COMMAND INFO of every command)', async () => {
    const live = await snapshotFromNode(client);
    expect(live.server).toMatch(/^valkey 8\./);
    expect(snapshotJson(live)).toBe(snapshotJson(committedSnapshot()));
  });

  it.each(SAMPLES.map((a) => [a.join(' '), a] as const))('COMMAND GETKEYS %s matches the interpreter', async (_name, argv) => {
    const server = (await client.call('COMMAND', 'GETKEYS', ...argv)) as string[];
    const ours = keysOfArgv(committedSnapshot(), argv);
    expect(ours).toEqual({ keys: server });
  });

  it('a command the server gives no keys for has none in the interpreter either', async () => {
    await expect(client.call('COMMAND', 'GETKEYS', 'PING')).rejects.toThrow(/no key arguments|Invalid arguments/i);
    expect(keysOfArgv(committedSnapshot(), ['PING'])).toEqual({ keys: [] });
  });
});
