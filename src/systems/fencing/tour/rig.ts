/**
 * The rig fencing's tour runs on: the real systems, one per mode, as the door runs them:
 * `disabled` on a standalone node, `compatible` on a one-shard cluster (slot rules on), `enabled`
 * on a three-shard cluster. Every (state, attempt) of the tour gets a session of its own (sessions
 * are independent keys: a fresh part of the rig), so many are in flight at once on shared
 * connections. A mode door step carries the session's keys from one topology to the next, as the
 * property runs' door does (DUMP/RESTORE with the TTL).
 */
import { closeClient, startTopology, type Topology, type ValkeyClient } from '../../../valkey/index.js';
import { carryKeys, type DoorBackend } from '../door.js';
import { encodeLease } from '../encoding.js';
import { KEY_ROLES, sessionKeys, type SessionKeys, type SessionRef } from '../keys.js';
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

/**
 * Writes state s's keyspace for one session on the topology of s's mode, in one round trip:
 * each live lease in the documented encoding with a PX TTL, each non-zero counter without one.
 * The deploy records (versions, target, backfill record, mode) are the driver's, set by its
 * `initial` option.
 */
export async function injectKeyspace(conn: ValkeyClient, keys: SessionKeys, s: FencingState, leaseTtlMs: number): Promise<void> {
  const writes: Promise<unknown>[] = [];
  if (s.oldLease.owner !== NONE) writes.push(conn.set(keys.oldLease, encodeLease(s.oldLease.owner, s.oldLease.gen), 'PX', leaseTtlMs));
  if (s.newLease.owner !== NONE) writes.push(conn.set(keys.newLease, encodeLease(s.newLease.owner, s.newLease.gen), 'PX', leaseTtlMs));
  if (s.oldGen > 0) writes.push(conn.set(keys.oldGen, String(s.oldGen)));
  if (s.newGen > 0) writes.push(conn.set(keys.newGen, String(s.newGen)));
  await Promise.all(writes);
}

/** PTTL of the session's four keys (-2 missing, -1 no TTL). */
export async function readTtls(conn: ValkeyClient, keys: SessionKeys): Promise<Readonly<Record<(typeof KEY_ROLES)[number], number>>> {
  const [oldLease, oldGen, newLease, newGen] = await Promise.all(KEY_ROLES.map((r) => conn.pttl(keys[r])));
  return { oldLease: oldLease!, oldGen: oldGen!, newLease: newLease!, newGen: newGen! };
}

/**
 * The mode door for one session: EnterCompatible carries the four keys onto the one-shard cluster,
 * RevertDisabled carries them back, Enable carries them onto the three-shard cluster (where each key
 * lives on the shard its slot belongs to). The pre-G3 check asks the one-shard cluster.
 */
export function tourDoor(rig: TourRig, session: SessionRef): DoorBackend {
  const keys = sessionKeys(session);
  const all = KEY_ROLES.map((r) => keys[r]);
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
      await carryKeys(conns.compatible, conns.enabled, all);
      return conns.enabled;
    },
    migrating: false,
    askRedirects: async () => 0,
    reset: async () => {},
    close: async () => {},
  };
}
