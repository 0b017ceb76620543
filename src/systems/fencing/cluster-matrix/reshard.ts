/**
 * A live slot migration between two primaries, paced in batches so that a migration lasts long
 * enough to be met by the rows' clients (ASK, TRYAGAIN, then MOVED). The steps are the shared ones
 * of src/valkey/slot-migration.ts (the mode door's too); this module picks the nodes and the pace.
 */
import type { Redis } from 'ioredis';
import { closeClient, nodeClient } from '../../../valkey/index.js';
import { beginSlotMigration as begin, type MigrationNode } from '../../../valkey/slot-migration.js';
import { readSlotMap, endpointKey, type Endpoint } from '../../../valkey/cluster-map.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface MigrationOptions {
  /** Keys per MIGRATE (default 2). */
  readonly batch?: number;
  /** Pause after IMPORTING/MIGRATING and between batches (default 40 ms). */
  readonly pauseMs?: number;
}

export interface Migration {
  readonly slot: number;
  readonly from: Endpoint;
  readonly to: Endpoint;
  readonly keysMoved: number;
  readonly durationMs: number;
}

/** A migration under way, step by step: keys move when the caller says, so a test can stand between ASK and MOVED. */
export interface SlotMigration {
  readonly slot: number;
  readonly from: Endpoint;
  readonly to: Endpoint;
  /** MIGRATE these keys (all in `slot`) to the importing node. */
  move(keys: readonly string[]): Promise<void>;
  /** Keys still on the source. */
  remaining(count: number): Promise<string[]>;
  /** SETSLOT NODE on every primary: from here the source answers MOVED. */
  finish(): Promise<void>;
  close(): Promise<void>;
}

/**
 * IMPORTING on the next primary (by port order), MIGRATING on the slot's owner. On a cluster whose
 * bus is TLS, `tlsPortOf` gives each primary's TLS port (MIGRATE then connects with TLS).
 */
export async function beginSlotMigration(primaries: readonly Endpoint[], slot: number, tlsPortOf?: (e: Endpoint) => number | undefined): Promise<SlotMigration> {
  const admins = new Map<string, Redis>(primaries.map((p) => [endpointKey(p), nodeClient(p)] as const));
  const a = (e: Endpoint) => admins.get(endpointKey(e))!;
  const close = () => Promise.all([...admins.values()].map((c) => closeClient(c))).then(() => undefined);
  try {
    const map = await readSlotMap(a(primaries[0]!));
    const from = map.owner(slot);
    const sorted = [...primaries].sort((x, y) => x.port - y.port);
    const to = sorted[(sorted.findIndex((p) => endpointKey(p) === endpointKey(from)) + 1) % sorted.length]!;
    const nodes = new Map<string, MigrationNode>();
    for (const p of primaries) {
      const migratePort = tlsPortOf?.(p);
      nodes.set(endpointKey(p), { host: p.host, port: p.port, ...(migratePort !== undefined && { migratePort }), id: String(await a(p).call('CLUSTER', 'MYID')), admin: a(p) });
    }
    const n = (e: Endpoint) => nodes.get(endpointKey(e))!;
    const others = primaries.filter((p) => endpointKey(p) !== endpointKey(from) && endpointKey(p) !== endpointKey(to)).map(n);
    const m = await begin(slot, n(from), n(to), others);
    return { slot, from, to, move: m.move, remaining: m.remaining, finish: m.finish, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** Moves `slot` from its current owner to the next primary, `batch` keys at a time with pauses. */
export async function migrateSlotLive(primaries: readonly Endpoint[], slot: number, opts: MigrationOptions = {}): Promise<Migration> {
  const t0 = performance.now();
  const m = await beginSlotMigration(primaries, slot);
  try {
    const pause = opts.pauseMs ?? 40;
    await sleep(pause);
    let moved = 0;
    for (;;) {
      const keys = await m.remaining(opts.batch ?? 2);
      if (keys.length === 0) break;
      await m.move(keys);
      moved += keys.length;
      await sleep(pause);
    }
    await m.finish();
    return { slot, from: m.from, to: m.to, keysMoved: moved, durationMs: Math.round(performance.now() - t0) };
  } finally {
    await m.close();
  }
}

/** A counter from a node's INFO section (0 when the line is absent: nothing counted yet). */
async function infoCount(c: Redis, section: string, line: RegExp): Promise<number> {
  return Number(line.exec(await c.info(section))?.[1] ?? 0);
}

/** ASK redirects served so far (cmdstat_asking on every primary): proof a migration was met, not just run. */
export async function askingCalls(primaries: readonly Endpoint[]): Promise<number> {
  let n = 0;
  for (const p of primaries) {
    const c = nodeClient(p);
    try {
      n += await infoCount(c, 'commandstats', /cmdstat_asking:calls=(\d+)/);
    } finally {
      await closeClient(c);
    }
  }
  return n;
}

/** TRYAGAIN replies a node has sent so far (errorstat_TRYAGAIN): a multi-key command met a half-moved slot there. */
export function tryAgainReplies(c: Redis): Promise<number> {
  return infoCount(c, 'errorstats', /errorstat_TRYAGAIN:count=(\d+)/);
}
