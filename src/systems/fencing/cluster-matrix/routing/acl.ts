/**
 * The relay's ACL user: only the commands, key patterns and shard channels the relay needs, set
 * on every node (ACL users are per node). `omit` drops permissions to build the deliberately
 * broken users.
 */
import { closeClient, nodeClient, type NodeInfo } from '../../../../valkey/index.js';

export const RELAY_USER = 'relay';

/** What the relay runs (the design's inventory: GET/SET/MGET/Lua/SPUBLISH, the index, pub/sub) plus what a cluster client needs to route. */
export const RELAY_COMMANDS = [
  // incr: called inside the fencing C acquire script (ACL rules apply to a script's own calls too).
  'get',
  'set',
  'mget',
  'del',
  'pexpire',
  'incr',
  'zadd',
  'zrangebyscore',
  'zremrangebyscore',
  'zcard',
  'evalsha',
  'eval',
  'script|load',
  'spublish',
  'ssubscribe',
  'sunsubscribe',
  'psubscribe',
  'punsubscribe',
  'publish',
  'ping',
  'hello',
  'auth',
  'asking',
  'readonly',
  'info',
  'cluster|slots',
  'cluster|shards',
  'cluster|info',
  'cluster|nodes',
  'client|setinfo',
  'client|setname',
  'client|id',
] as const;
export const RELAY_KEYS = ['buzz:*', 'mesh:*'] as const;
export const RELAY_CHANNELS = ['buzz:*'] as const;

export async function setRelayUser(nodes: readonly NodeInfo[], password: string, omit: readonly string[] = []): Promise<void> {
  const rules = [
    'reset',
    'on',
    `>${password}`,
    ...RELAY_KEYS.map((k) => `~${k}`),
    'resetchannels',
    ...RELAY_CHANNELS.map((c) => `&${c}`),
    '-@all',
    ...RELAY_COMMANDS.filter((c) => !omit.includes(c)).map((c) => `+${c}`),
  ];
  await Promise.all(
    nodes.map(async (n) => {
      const c = nodeClient(n);
      try {
        await c.call('ACL', 'SETUSER', RELAY_USER, ...rules);
      } finally {
        await closeClient(c);
      }
    }),
  );
}
