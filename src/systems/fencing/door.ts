/**
 * The mode door, locally. ElastiCache changes the mode in place; here the keyspace is carried from
 * the standalone node onto a cluster-enabled topology whose first primary owns all 16384 slots
 * (mode `compatible`: one shard, slot rules on), and `Enable` reshards live onto the three primaries
 * (CLUSTER SETSLOT IMPORTING/MIGRATING + MIGRATE) while the run's commands keep going, so the
 * clients meet ASK/TRYAGAIN/MOVED. ../shared/design/fencing-scripts.md "Topologies and the mode door".
 */
import type { Redis } from 'ioredis';
import { closeClient, createClient, type NodeInfo, type Topology, type ValkeyClient } from '../../valkey/index.js';
import { beginSlotMigration, type MigrationNode } from '../../valkey/slot-migration.js';
import { NotOwnedError } from '../../valkey/errors.js';
import { keySlot, SLOT_COUNT } from '../../valkey/slots.js';
import type { KeyslotCheck } from './gate/observations.js';

export interface DoorBackend {
  /** Pre-G3 check: CLUSTER KEYSLOT of both members of a real tagged pair, asked of a cluster-enabled node. */
  keyslotCheck(pair: readonly [string, string]): Promise<KeyslotCheck>;
  /** Carries the keys (DUMP/RESTORE, remaining TTL) onto the one-shard cluster; returns a cluster client. */
  enter(from: ValkeyClient, keys: readonly string[]): Promise<ValkeyClient>;
  /** Carries the keys back onto the standalone node (compatible → disabled). */
  revert(to: ValkeyClient, keys: readonly string[]): Promise<void>;
  /**
   * Starts the live resharding onto every primary; the live keys' slot moves in the background.
   * A door whose enabled mode is another topology returns the connection to use from now on.
   */
  enable(liveKeys: readonly string[]): Promise<ValkeyClient | void>;
  /** True while a live slot migration is under way. */
  readonly migrating: boolean;
  /** ASKING commands the primaries have served so far: each is a client that met an ASK redirect. */
  askRedirects(): Promise<number>;
  /** Waits for the resharding, empties the cluster and gives every slot back to the first primary. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

const STAGE_DELAY_MS = 25;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The slot range each primary owns after Enable (the same even split as a freshly formed cluster). */
export function enabledRanges(primaries: number): [number, number][] {
  return Array.from({ length: primaries }, (_, i) => [Math.floor((i * SLOT_COUNT) / primaries), Math.floor(((i + 1) * SLOT_COUNT) / primaries) - 1]);
}

/** Sorted slots as contiguous [lo, hi] ranges. */
export function toRanges(slots: readonly number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const s of [...slots].sort((a, b) => a - b)) {
    const last = out[out.length - 1];
    if (last && s === last[1] + 1) last[1] = s;
    else out.push([s, s]);
  }
  return out;
}

function ownerIndex(slot: number, ranges: readonly [number, number][]): number {
  return ranges.findIndex(([lo, hi]) => slot >= lo && slot <= hi);
}

async function waitFor(what: string, ok: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`door: timed out waiting for ${what}`);
    await sleep(20);
  }
}

/**
 * Carries keys from one topology to another as the mode change does: DUMP with the remaining TTL,
 * RESTORE on the other side, DEL at the source. A missing key is skipped.
 */
export async function carryKeys(from: ValkeyClient, to: ValkeyClient, keys: readonly string[]): Promise<void> {
  for (const k of keys) {
    const [dump, pttl] = await Promise.all([from.dumpBuffer(k), from.pttl(k)]);
    if (dump === null) continue;
    await to.restore(k, Math.max(pttl, 0), dump, 'REPLACE');
    await from.del(k);
  }
}

/**
 * Builds the door over a cluster topology of ≥2 primaries that the harness owns. On any other
 * topology it throws before a single command is sent: a NotOwnedError ("could not run", exit 2)
 * when the harness did not start every node (the door flushes, sets CONFIG, reshards), even with
 * FENCECHECK_ALLOW_DESTRUCTIVE=1.
 */
export async function createDoor(topology: Topology): Promise<DoorBackend> {
  if (!topology.owned) {
    const where = topology.nodes.map((n) => `${n.host}:${n.port}`).join(',');
    throw new NotOwnedError(
      'the mode door flushes every primary, sets CONFIG and reshards',
      `the ${topology.provider} cluster at ${where || 'the given endpoint'} was not started by the harness${topology.destructiveAllowed ? '; FENCECHECK_ALLOW_DESTRUCTIVE=1 does not make it owned' : ''}`,
    );
  }
  if (topology.spec.kind !== 'cluster') throw new Error('the door needs an owned cluster topology');
  const primaries = topology.nodes.filter((n) => n.role === 'primary');
  if (primaries.length < 2) throw new Error('the door needs at least two primaries to reshard onto');
  const admins = primaries.map((n) => createClient({ kind: 'standalone', host: n.host, port: n.port }) as Redis);
  try {
    return await openDoor(topology, primaries, admins);
  } catch (err) {
    // A door that could not be shaped (a node gone, a view that never converged) leaks no client.
    await Promise.all(admins.map((a) => closeClient(a)));
    throw err;
  }
}

async function openDoor(topology: Topology, primaries: readonly NodeInfo[], admins: readonly Redis[]): Promise<DoorBackend> {
  const ids = await Promise.all(admins.map(async (a) => String(await a.call('CLUSTER', 'MYID'))));
  // A primary that loses its last slot would otherwise turn itself into a replica of the new owner.
  await Promise.all(admins.map((a) => a.call('CONFIG', 'SET', 'cluster-allow-replica-migration', 'no')));
  const ranges = enabledRanges(primaries.length);
  let cluster: ValkeyClient | undefined;
  let background: Promise<void> | undefined;
  let migrating = false;

  /**
   * Gives empty slots to `owner`: the owner claims the ranges in its own view with a fresh epoch, and
   * every other node forgets them (an unassigned slot takes any claim, whatever the epochs), so
   * gossip converges on the owner. The caller waits until every node agrees.
   */
  async function assignEmpty(slots: readonly number[], owner: number): Promise<void> {
    if (slots.length === 0) return;
    const ranges = toRanges(slots);
    // The others forget first, so no gossip can hand the slots back to the owner's view halfway.
    for (const [i, a] of admins.entries()) {
      if (i === owner) continue;
      for (const [lo, hi] of ranges) await a.call('CLUSTER', 'DELSLOTSRANGE', lo, hi).catch(() => undefined);
    }
    const a = admins[owner]!;
    await a.call('CLUSTER', 'BUMPEPOCH');
    for (const [lo, hi] of ranges) {
      // Forget and claim in one transaction: no gossip is processed between the two.
      for (let attempt = 1; ; attempt++) {
        const res = (await a.multi().call('CLUSTER', 'DELSLOTSRANGE', lo, hi).call('CLUSTER', 'ADDSLOTSRANGE', lo, hi).exec()) ?? [];
        const err = res.map(([e]) => e).find((e) => e && !/already unassigned|not assigned/i.test(String(e)));
        if (!err) break;
        if (attempt >= 5) throw new Error(`door: claiming slots ${lo}-${hi} on primary ${owner}: ${String(err)}`);
        await sleep(50);
      }
    }
  }

  /** Live migration of one slot from node `from` to node `to`, with pauses so commands interleave. */
  const node = (i: number): MigrationNode => ({ host: primaries[i]!.host, port: primaries[i]!.port, id: ids[i]!, admin: admins[i]! });
  async function migrateSlot(slot: number, from: number, to: number, pause: number): Promise<void> {
    const m = await beginSlotMigration(
      slot,
      node(from),
      node(to),
      admins.flatMap((_, i) => (i !== from && i !== to ? [node(i)] : [])),
    );
    if (pause > 0) await sleep(pause);
    await m.move(await m.remaining(1000));
    if (pause > 0) await sleep(pause);
    await m.finish();
  }

  async function viewsAgree(expect: (slot: number) => number): Promise<boolean> {
    for (const a of admins) {
      const slots = (await a.call('CLUSTER', 'SLOTS')) as [number, number, [string, number, string]][];
      for (const [lo, hi, [, , id]] of slots) {
        for (const s of [lo, hi]) if (ids[expect(s)] !== id) return false;
      }
      if (!/cluster_state:ok/.test(String(await a.call('CLUSTER', 'INFO')))) return false;
    }
    return true;
  }

  /** Every slot on the first primary: the one-shard `compatible` topology. */
  async function consolidate(): Promise<void> {
    const others: number[] = [];
    for (let slot = ranges[1]![0]; slot < SLOT_COUNT; slot++) others.push(slot);
    await assignEmpty(others, 0);
    await waitFor('every node to see one shard owning all slots', () => viewsAgree(() => 0));
  }

  // Start from the compatible shape (a freshly formed cluster splits the slots evenly).
  await topology.flush();
  await consolidate();

  return {
    async keyslotCheck(pair) {
      const slots = await Promise.all(pair.map(async (k) => Number(await admins[0]!.call('CLUSTER', 'KEYSLOT', k))));
      return { keys: [pair[0], pair[1]], slots: [slots[0]!, slots[1]!] };
    },
    async enter(from, keys) {
      cluster ??= topology.client();
      await carryKeys(from, cluster, keys);
      return cluster;
    },
    async revert(to, keys) {
      if (!cluster) throw new Error('door: revert before enter');
      await carryKeys(cluster, to, keys);
    },
    async enable(liveKeys) {
      const live = new Set(liveKeys.map(keySlot));
      // Slots holding keys (the carried old keys, the live pair) move with their keys; empty ones by SETSLOT.
      const nonEmpty = new Set<number>();
      for (const s of live) nonEmpty.add(s);
      for (const [i, [lo, hi]] of ranges.entries()) {
        if (i === 0) continue;
        const counts = admins[0]!.pipeline();
        for (let s = lo; s <= hi; s++) counts.call('CLUSTER', 'COUNTKEYSINSLOT', s);
        const replies = (await counts.exec()) ?? [];
        const empty: number[] = [];
        for (let s = lo; s <= hi; s++) {
          if (live.has(s)) continue;
          if (Number(replies[s - lo]?.[1] ?? 0) > 0) nonEmpty.add(s);
          else empty.push(s);
        }
        await assignEmpty(empty, i);
      }
      await waitFor('every node to agree on the split', () => viewsAgree((s) => (nonEmpty.has(s) ? 0 : ownerIndex(s, ranges))));
      for (const s of nonEmpty) {
        const to = ownerIndex(s, ranges);
        if (to === 0 || live.has(s)) continue;
        await migrateSlot(s, 0, to, 0);
      }
      // The live pair's slot migrates while the run goes on: its clients meet ASK / TRYAGAIN / MOVED.
      const moving = [...live].filter((s) => ownerIndex(s, ranges) !== 0);
      migrating = moving.length > 0;
      background = (async () => {
        try {
          for (const s of moving) await migrateSlot(s, 0, ownerIndex(s, ranges), STAGE_DELAY_MS);
        } finally {
          migrating = false;
        }
      })();
      background.catch(() => {});
    },
    get migrating() {
      return migrating;
    },
    async askRedirects() {
      let n = 0;
      for (const a of admins) n += Number(/cmdstat_asking:calls=(\d+)/.exec(await a.info('commandstats'))?.[1] ?? 0);
      return n;
    },
    async reset() {
      if (background) await background.catch(() => {});
      background = undefined;
      if (cluster) await closeClient(cluster);
      cluster = undefined;
      await topology.flush();
      await consolidate();
    },
    async close() {
      if (background) await background.catch(() => {});
      if (cluster) await closeClient(cluster);
      await Promise.all(admins.map((a) => closeClient(a)));
    },
  };
}
