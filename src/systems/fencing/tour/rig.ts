/**
 * The rig fencing's tour runs on: the real systems, one per mode, as the door runs them:
 * `disabled` on a standalone node, `compatible` on a one-shard cluster (slot rules on), `enabled`
 * on a three-shard cluster. Every (state, attempt) of the tour gets a session of its own (sessions
 * are independent keys: a fresh part of the rig), so many are in flight at once on shared
 * connections. A mode door step carries the session's keys from one topology to the next, as the
 * property runs' door does (DUMP/RESTORE with the TTL).
 */
import { Cluster, type Redis } from 'ioredis';
import { closeClient, startTopology, type Topology, type ValkeyClient } from '../../../valkey/index.js';
import { evalScript, luaScript } from '../../../valkey/scripts/index.js';
import { isNoScript } from '../../../valkey/scripts/eval.js';
import { keySlot } from '../../../valkey/slots.js';
import { batchWrites } from '../../../valkey/write-batching.js';
import { carryKeys, type DoorBackend } from '../door.js';
import { encodeLease } from '../encoding.js';
import { KEY_ROLES, sessionKeys, type KeyRole, type SessionKeys, type SessionRef } from '../keys.js';
import { NONE, type FencingState, type Mode } from '../state.js';
import type { StartOptions } from '../../../valkey/start.js';

export interface TourRig {
  readonly topologies: Readonly<Record<Mode, Topology>>;
  /** One shared connection per mode. */
  readonly conns: Readonly<Record<Mode, ValkeyClient>>;
  /** A fresh session (its own four keys), numbered in the order the tour asks for them. */
  session(): SessionRef;
  close(): Promise<void>;
}

/** Starts the three topologies (in parallel) and opens one connection to each. */
export async function openTourRig(opts: StartOptions = {}): Promise<TourRig> {
  const started: Topology[] = [];
  const conns: ValkeyClient[] = [];
  const close = async () => {
    await Promise.all(conns.map((c) => closeClient(c)));
    await Promise.all(started.map((t) => t.stop()));
  };
  try {
    const specs = [{ kind: 'standalone' }, { kind: 'cluster', shards: 1 }, { kind: 'cluster', shards: 3 }] as const;
    const settled = await Promise.allSettled(specs.map((spec) => startTopology(spec, opts)));
    for (const r of settled) if (r.status === 'fulfilled') started.push(r.value);
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    const [disabled, compatible, enabled] = started as [Topology, Topology, Topology];
    const topologies = { disabled, compatible, enabled };
    const byMode = { disabled: disabled.client(), compatible: compatible.client(), enabled: enabled.client() };
    conns.push(byMode.disabled, byMode.compatible, byMode.enabled);
    // Hundreds of attempts in flight: their commands leave in one write per turn of the event loop.
    for (const c of conns) batchWrites(c);
    await loadRigScripts(conns);
    let n = 0;
    const run = `${process.pid.toString(36)}${Date.now().toString(36)}`;
    return {
      topologies,
      conns: byMode,
      session: () => ({ community: 'fct', session: `${run}n${(n += 1)}` }),
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/** Sets each declared key to its value, with a PX TTL where one is given (> 0): the injection, one call per slot. */
const WRITE_KEYSPACE = luaScript(
  'tour/write-keyspace',
  "for i = 1, #KEYS do\n  local ttl = tonumber(ARGV[2 * i])\n  if ttl > 0 then\n    redis.call('SET', KEYS[i], ARGV[2 * i - 1], 'PX', ttl)\n  else\n    redis.call('SET', KEYS[i], ARGV[2 * i - 1])\n  end\nend\nreturn #KEYS\n",
);

/** GET and PTTL of each declared key (false for a missing key): the read-back, one call per slot. Read-only. */
const READ_KEYSPACE = luaScript(
  'tour/read-keyspace',
  "local out = {}\nfor i = 1, #KEYS do\n  out[2 * i - 1] = redis.call('GET', KEYS[i])\n  out[2 * i] = redis.call('PTTL', KEYS[i])\nend\nreturn out\n",
);

/** The keys by slot on a Cluster (a script's keys must share one), all together on a standalone node. */
function bySlot<T extends { readonly key: string }>(conn: ValkeyClient, items: readonly T[]): T[][] {
  if (!(conn instanceof Cluster)) return items.length > 0 ? [items.slice()] : [];
  const prefix = conn.options.keyPrefix ?? '';
  const groups = new Map<number, T[]>();
  for (const it of items) {
    const slot = keySlot(prefix + it.key);
    const g = groups.get(slot);
    if (g) g.push(it);
    else groups.set(slot, [it]);
  }
  return [...groups.values()];
}

/** Loads the injection and read-back scripts on every primary of the rig, so that EVALSHA always finds them. */
async function loadRigScripts(conns: readonly ValkeyClient[]): Promise<void> {
  const nodes: Redis[] = [];
  for (const c of conns) {
    if (c instanceof Cluster) {
      if (c.status !== 'ready') await c.ping(); // its node list is known once ready
      nodes.push(...c.nodes('master'));
    } else nodes.push(c);
  }
  await Promise.all(nodes.flatMap((n) => [WRITE_KEYSPACE, READ_KEYSPACE].map((script) => n.script('LOAD', script.source))));
}

/** The rig lost a script it loaded (a node restarted or flushed its scripts): a fault, never a reordered write. */
export class RigScriptMissingError extends Error {
  override readonly name = 'RigScriptMissingError';
}

/**
 * Writes state s's keyspace for one session on the topology of s's mode, one call of the write
 * script per slot: each live lease in the documented encoding with a PX TTL, each non-zero counter
 * without one. The commands are sent before this returns its promise, so a command sent after it on
 * the same connection (the attempt) runs after them; that is why this is a plain EVALSHA of a
 * script the rig loaded, never a NOSCRIPT fallback (which would run after what came later).
 * The deploy records (versions, target, backfill record, mode) are the driver's, set by its
 * `initial` option.
 */
export function injectKeyspace(conn: ValkeyClient, keys: SessionKeys, s: FencingState, leaseTtlMs: number): Promise<void> {
  const writes: { key: string; value: string; ttl: number }[] = [];
  if (s.oldLease.owner !== NONE) writes.push({ key: keys.oldLease, value: encodeLease(s.oldLease.owner, s.oldLease.gen), ttl: leaseTtlMs });
  if (s.oldGen > 0) writes.push({ key: keys.oldGen, value: String(s.oldGen), ttl: 0 });
  if (s.newLease.owner !== NONE) writes.push({ key: keys.newLease, value: encodeLease(s.newLease.owner, s.newLease.gen), ttl: leaseTtlMs });
  if (s.newGen > 0) writes.push({ key: keys.newGen, value: String(s.newGen), ttl: 0 });
  const calls = bySlot(conn, writes).map((g) =>
    conn.evalsha(WRITE_KEYSPACE.sha1, g.length, ...g.map((w) => w.key), ...g.flatMap((w) => [w.value, w.ttl])).catch((err: unknown) => {
      if (isNoScript(err)) throw new RigScriptMissingError(`the tour rig's write script is gone from a node (NOSCRIPT): ${(err as Error).message}`);
      throw err;
    }),
  );
  return Promise.all(calls).then(() => undefined);
}

/** The session's four keys as read back: each value (null: missing) and PTTL (-2 missing, -1 no TTL). */
export interface KeyspaceReadback {
  readonly values: Readonly<Record<KeyRole, string | null>>;
  readonly ttl: Readonly<Record<KeyRole, number>>;
}

/** Values and PTTLs of the session's four keys, one script call per slot. */
export async function readKeyspace(conn: ValkeyClient, keys: SessionKeys): Promise<KeyspaceReadback> {
  const values = {} as Record<KeyRole, string | null>;
  const ttl = {} as Record<KeyRole, number>;
  const items = KEY_ROLES.map((role) => ({ role, key: keys[role] }));
  await Promise.all(
    bySlot(conn, items).map(async (g) => {
      const reply = await evalScript(
        conn,
        READ_KEYSPACE,
        g.map((i) => i.key),
        [],
      );
      if (!Array.isArray(reply) || reply.length !== 2 * g.length) throw new Error(`tour/read-keyspace answered ${JSON.stringify(reply).slice(0, 80)}`);
      g.forEach((i, n) => {
        const v: unknown = reply[2 * n];
        values[i.role] = v === null || v === undefined || v === false ? null : String(v);
        ttl[i.role] = Number(reply[2 * n + 1]);
      });
    }),
  );
  return { values, ttl };
}

/**
 * The mode door for one session: EnterCompatible carries the four keys onto the one-shard cluster,
 * RevertDisabled carries them back, Enable carries them onto the three-shard cluster (where each key
 * lives on the shard its slot belongs to). The pre-G3 check asks the one-shard cluster.
 */
export function tourDoor(rig: TourRig, session: SessionRef): DoorBackend {
  return sessionDoor(rig, () => session);
}

/** The mode door of whichever session `current` names now (a driver the tour retargets keeps one door). */
export function sessionDoor(rig: TourRig, current: () => SessionRef): DoorBackend {
  const { conns } = rig;
  return {
    async keyslotCheck(pair) {
      const slots = await Promise.all(pair.map(async (k) => Number(await conns.compatible.call('CLUSTER', 'KEYSLOT', k))));
      return { keys: [pair[0], pair[1]], slots: [slots[0]!, slots[1]!] };
    },
    async enter(from, carried) {
      await carryKeys(from, conns.compatible, carried);
      return conns.compatible;
    },
    async revert(to, carried) {
      await carryKeys(conns.compatible, to, carried);
    },
    async enable() {
      const keys = sessionKeys(current());
      await carryKeys(
        conns.compatible,
        conns.enabled,
        KEY_ROLES.map((r) => keys[r]),
      );
      return conns.enabled;
    },
    migrating: false,
    askRedirects: async () => 0,
    reset: async () => {},
    close: async () => {},
  };
}
