/**
 * The replica-repair drill: a replica loses its replication link and restarts in place while three
 * clients run independently — a replica-read client (the fallback's read offload), the command
 * client on the primaries, and the subscription client — and its resync is held until the drill
 * releases it. Judged: every read returns the value written (never a nil or stale one from a replica
 * that has not caught up), the replica serves the client's reads again after the release (its
 * connection was repaired), and neither other client noticed.
 *
 * Deterministic, not timed. The replica's link runs through a FaultProxy (src/replication/link.ts)
 * and the drill moves it through four phases, each ending on an event it observes (the link down,
 * the replica back in the client's pool, the link up, so many reads done), bounded only against a
 * stall:
 *  1. the link drops and every re-connect is held: the replica keeps its keys, hears nothing more;
 *  2. the replica restarts from a snapshot it took before the keys were written (SAVE, then the
 *     keys; persistence is off, so the restart loads that snapshot: a replica that crashed and
 *     restarts from its last snapshot), its resync still held. The snapshot carries a replication
 *     offset, so every node lists it in CLUSTER SLOTS while it lacks every key. (A replica that
 *     restarts empty reports offset 0 and Valkey leaves it out of CLUSTER SLOTS until its full sync
 *     is loaded; only a node whose gossip is still stale lists it, for the first ≈100–200 ms — why
 *     the failure the row first found came and went.);
 *  3. its handshake goes through to the primary's +CONTINUE: connected, at its snapshot's offset,
 *     what it missed still held back;
 *  4. everything is released: it catches up, and the client must read from it again.
 */
import type { Cluster, Redis } from 'ioredis';
import { closeClient, createClient, nodeClient, type NodeInfo, type Topology } from '../../../../valkey/index.js';
import { waitUntil } from '../../../../valkey/wait.js';
import { InfrastructureFault } from '../../../../valkey/fault.js';
import { routeThroughProxy, type ReplicationLink } from '../../failover/link.js';
import { keySlot } from '../../../../valkey/slots.js';
import { currentSlotMap, endpointKey } from '../../../../valkey/cluster-map.js';
import { judgeLedger, type Published } from '../pubsub/ledger.js';
import { ShardedSubscriber } from '../pubsub/subscriber.js';
import { sleep } from '../stats.js';
import { restartInPlace } from './restart.js';
import { infoField, REPLICA_CONFIG, REPLICA_CONFIG_DEFAULTS, replicaReadClient, type ReplicaReadClient, type ReplicaReadDesign } from './replica-reader.js';

export interface ReplicaDrillResult {
  readonly replica: string;
  /** Restart → the replica answers again (its resync still held). */
  readonly backMs: number;
  /** Restart → the replica is in the read client's pool again; null: it never came back during the hold. */
  readonly rejoinedMs: number | null;
  /** How long the replica's resync was held (link dropped → the stream released). */
  readonly heldMs: number;
  /** Handshake released → the replica's link is up (connected, not yet sent what it missed). */
  readonly linkUpMs: number;
  /** How long it stayed connected with what it missed held. */
  readonly connectedHeldMs: number;
  /** Release → the replica answered a read of the client again; null: not within the bound. */
  readonly repairMs: number | null;
  readonly reads: number;
  readonly readErrors: number;
  /** Reads that failed more than a second after the replica answered again. */
  readonly lateReadErrors: number;
  readonly wrongReads: string[];
  /** Wrong reads per phase, in order: before the hold, link down, restarted, connected but behind, released. */
  readonly wrongByPhase: readonly number[];
  /** Reads the replica refused (MASTERDOWN / LOADING), from its counters since the restart plus before. */
  readonly refusedByReplica: number;
  /** Reads the client re-sent to the primary. */
  readonly fallbacks: number;
  readonly commandErrors: string[];
  readonly commandMaxGapMs: number;
  readonly lostMessages: string[];
  readonly published: number;
}

/** Release → the replica serves the client again: a repaired connection is back well within it (measured: docs/cluster-matrix.md). */
export const REPAIR_BOUND_MS = 3_000;
/** Reads each held phase lets the client make (link down; restarted and back in the pool; connected, behind). */
export const READS_PER_PHASE = 20;
/** Against a stalled phase only (every phase ends on an event long before). */
const STALL_BOUND_MS = 15_000;
const KEYS = 60;

interface GetStats {
  readonly calls: number;
  readonly rejected: number;
}

/**
 * One admin command on a connection of its own. The drill restarts and re-links the node these
 * talk to, so a connection lost under the command (ioredis: "Connection is closed.") is tried again
 * on a new one, a few times: every command here is a read or idempotent (INFO, CONFIG SET, SAVE),
 * and none is what a row judges (that is the client's reads).
 */
async function onNode<T>(node: NodeInfo, run: (c: Redis) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const c = nodeClient(node);
    try {
      return await run(c);
    } catch (err) {
      if (attempt >= ADMIN_ATTEMPTS || !isConnectionLoss(err)) throw err;
    } finally {
      await closeClient(c);
    }
    await sleep(50 * attempt);
  }
}

const ADMIN_ATTEMPTS = 5;

function isConnectionLoss(err: unknown): boolean {
  return err instanceof Error && /Connection is closed|ECONNRESET|ECONNREFUSED|EPIPE/.test(err.message);
}

async function getStats(node: NodeInfo): Promise<GetStats> {
  const line = /cmdstat_get:(.*)/.exec(await onNode(node, (c) => c.info('commandstats')))?.[1] ?? '';
  const n = (name: string) => Number(new RegExp(`\\b${name}=(\\d+)`).exec(line)?.[1] ?? 0);
  return { calls: n('calls'), rejected: n('rejected_calls') };
}

function adminCall(node: NodeInfo, ...args: string[]): Promise<unknown> {
  return onNode(node, (c) => c.call(args[0]!, ...args.slice(1)));
}

function replicationInfo(node: NodeInfo): Promise<string> {
  return onNode(node, (c) => c.info('replication'));
}

/**
 * Until the replica has applied everything its primary had written when this was called. (Read
 * from the replica itself: the primary's view waits for the replica's once-a-second ACK.)
 */
async function waitCaughtUp(primary: NodeInfo, replica: NodeInfo): Promise<void> {
  const target = Number(infoField(await replicationInfo(primary), 'master_repl_offset'));
  await waitUntil(
    `${endpointKey(replica)} to reach its primary's offset ${target}`,
    async () => {
      const info = await replicationInfo(replica);
      return infoField(info, 'master_link_status') === 'up' && Number(infoField(info, 'slave_repl_offset')) >= target;
    },
    STALL_BOUND_MS,
    10,
  );
}

async function configure(node: NodeInfo, pairs: readonly (readonly [string, string])[]): Promise<void> {
  for (const [k, v] of pairs) await adminCall(node, 'CONFIG', 'SET', k, v);
}

/** The deliberately broken client: one READONLY connection to the replica, never re-established. */
async function pinnedReader(replica: NodeInfo): Promise<ReplicaReadClient> {
  const c: Redis = nodeClient(replica);
  (c.options as { retryStrategy: () => null }).retryStrategy = () => null;
  await c.call('READONLY');
  return {
    get: (key) => c.get(key),
    poolState: () => (c.status === 'ready' ? 'pooled' : 'gone'),
    fallbacks: 0,
    close: () => closeClient(c),
  };
}

/** The designs of replica-reader.ts, and pinned (broken). */
export type ReplicaClient = ReplicaReadDesign | 'pinned';

/** The harness's own step did not happen (the proxy, the server): nothing learnt, the row is not run. */
async function mustHappen(what: string, done: () => Promise<boolean>): Promise<number> {
  const ms = await until(done, STALL_BOUND_MS);
  if (ms === null) throw new InfrastructureFault({ kind: 'timeout', reason: `${what} did not happen within ${STALL_BOUND_MS} ms` });
  return ms;
}

/** Polls `done` every 10 ms until true or `boundMs` passed; the time it took, or null. */
async function until(done: () => boolean | Promise<boolean>, boundMs: number): Promise<number | null> {
  const t0 = performance.now();
  while (performance.now() - t0 < boundMs) {
    if (await done()) return performance.now() - t0;
    await sleep(10);
  }
  return null;
}

export async function replicaDrill(topology: Topology, opts: { client: ReplicaClient }): Promise<ReplicaDrillResult> {
  const map = await currentSlotMap(topology);
  const replica = topology.nodes.find((n) => n.role === 'replica')!;
  const primaryPort = Number(infoField(await replicationInfo(replica), 'master_port'));
  const primary = topology.nodes.find((n) => n.port === primaryPort);
  if (!primary) throw new Error(`the replica ${endpointKey(replica)} replicates ${primaryPort}, not a node of the topology`);
  const keys = Array.from({ length: 4 * KEYS }, (_, i) => `buzz:c1:presence:r${i}`)
    .filter((k) => map.owner(keySlot(k)).port === primary.port)
    .slice(0, KEYS);
  const topics = [`buzz:${primary.port}:channel:a`, `buzz:${primary.port}:channel:b`, 'buzz:c9:channel:x'];
  // Subscribed before the link is proxied: its connections go to the primary's own port, not through the proxy.
  const sub = new ShardedSubscriber(topology, { resubscribe: true, followMoved: true });
  const config = REPLICA_CONFIG[opts.client];
  let link: ReplicationLink | undefined;
  let writer: Cluster | undefined;
  let reader: ReplicaReadClient | undefined;
  let running = true;
  const loops: Promise<void>[] = [];
  try {
    for (const t of topics) await sub.subscribe(t);
    link = await routeThroughProxy(primary, replica, { peers: topology.nodes, slot: keySlot(keys[0]!) });
    const target = { seeds: topology.nodes, natMap: link.natMap };
    writer = createClient({ kind: 'cluster', seeds: topology.nodes }, { natMap: link.natMap }) as Cluster;
    // The replica's snapshot predates the keys: DEL (an earlier drill's), snapshot, then write them.
    for (const k of keys) await writer.del(k);
    await waitCaughtUp(primary, replica);
    await adminCall(replica, 'SAVE');
    for (const k of keys) await writer.set(k, `v:${k}`);
    await waitCaughtUp(primary, replica);
    await configure(replica, config);
    reader = opts.client === 'pinned' ? await pinnedReader(replica) : replicaReadClient(opts.client, target);

    const published: Published[] = [];
    const wrongReads: string[] = [];
    const wrongByPhase = [0, 0, 0, 0, 0];
    let phase = 0;
    const commandErrors: string[] = [];
    const readErrorAt: number[] = [];
    let reads = 0;
    let lastCommand = Date.now();
    let commandMaxGap = 0;
    let n = 0;
    const r = reader;
    const w = writer;
    loops.push(
      (async () => {
        for (let i = 0; running; i++) {
          const k = keys[i % keys.length]!;
          // A read counts in the phase it began in.
          const began = phase;
          try {
            const v = await r.get(k);
            reads++;
            if (v !== `v:${k}`) {
              wrongReads.push(`read ${reads} of ${k} returned ${JSON.stringify(v)}`);
              wrongByPhase[began]! += 1;
            }
          } catch {
            readErrorAt.push(performance.now());
            await sleep(20);
          }
          await sleep(3);
        }
      })(),
      (async () => {
        while (running) {
          try {
            const k = `buzz:c2:presence:w${n % 50}`;
            await w.set(k, String(++n), 'EX', 60);
            const payload = `replica#${n}`;
            const t = topics[n % topics.length]!;
            const receivers = Number(await w.spublish(t, payload));
            published.push({ topic: t, payload, receivers, phase: 'replica-restart', expectSubscribed: true });
            const now = Date.now();
            commandMaxGap = Math.max(commandMaxGap, now - lastCommand);
            lastCommand = now;
          } catch (err) {
            commandErrors.push((err as Error).message.split('\n')[0]!);
          }
          await sleep(10);
        }
      })(),
    );
    // Reads the caller finished, answered or failed.
    const attempts = () => reads + readErrorAt.length;
    const readsDone = async (count: number) => {
      const from = attempts();
      await until(() => attempts() >= from + count, STALL_BOUND_MS);
    };
    const linkIs = (state: string) => async () => infoField(await replicationInfo(replica).catch(() => ''), 'master_link_status') === state;

    // Warm: the client reads from the replica (a guarded client once it admitted it).
    const start = await getStats(replica);
    await until(async () => (await getStats(replica).catch(() => start)).calls > start.calls, STALL_BOUND_MS);
    await readsDone(READS_PER_PHASE);
    const before = await getStats(replica);
    // 1. The link drops and stays down: the replica keeps every key but hears no more writes.
    const tHold = performance.now();
    phase = 1;
    link.hold();
    await mustHappen(`${endpointKey(replica)}'s link going down on the hold`, linkIs('down'));
    await readsDone(READS_PER_PHASE);
    const refusedBeforeRestart = (await getStats(replica)).rejected - before.rejected;
    // 2. It restarts from its snapshot, its resync still held.
    const tRestart = performance.now();
    phase = 2;
    const backMs = await restartInPlace(replica, { linkUp: false });
    const backAt = performance.now();
    // Its config file would set these again; the restart re-read only its command line.
    await configure(replica, config);
    const key = endpointKey(replica);
    await until(() => r.poolState(key) !== 'rejoining', STALL_BOUND_MS);
    const rejoinedMs = r.poolState(key) === 'pooled' ? Math.round(performance.now() - tRestart) : null;
    if (rejoinedMs !== null) await readsDone(READS_PER_PHASE);
    // 3. Its handshake goes through (+CONTINUE: connected, at its snapshot's offset), what it missed still held.
    const tHandshake = performance.now();
    phase = 3;
    link.releaseHandshake();
    const linkUp = await mustHappen(`${endpointKey(replica)}'s link coming up on the handshake's release`, linkIs('up'));
    await readsDone(READS_PER_PHASE);
    // 4. Released: it catches up; the client must read from it again.
    const atRelease = await getStats(replica);
    const tRelease = performance.now();
    phase = 4;
    link.release();
    const heldMs = Math.round(tRelease - tHold);
    const served = await until(async () => (await getStats(replica).catch(() => atRelease)).calls > atRelease.calls, REPAIR_BOUND_MS);
    const repairMs = served === null ? null : Math.round(performance.now() - tRelease);
    await sleep(300);
    const after = await getStats(replica);
    running = false;
    await Promise.all(loops);
    const t1 = performance.now();
    while (sub.deliveries.length < published.filter((p) => p.receivers >= 1).length && performance.now() - t1 < 1500) await sleep(20);
    const ledger = judgeLedger(published, sub.deliveries, new Set());
    return {
      replica: key,
      backMs,
      rejoinedMs,
      heldMs,
      linkUpMs: Math.round(linkUp),
      connectedHeldMs: Math.round(tRelease - tHandshake),
      repairMs,
      reads,
      readErrors: readErrorAt.length,
      lateReadErrors: readErrorAt.filter((t) => t > backAt + 1000).length,
      wrongReads,
      wrongByPhase,
      // The counters restarted with the server: before the restart, plus all since.
      refusedByReplica: refusedBeforeRestart + after.rejected,
      fallbacks: r.fallbacks,
      commandErrors,
      commandMaxGapMs: commandMaxGap,
      lostMessages: [...ledger.lost, ...ledger.unreachable, ...ledger.duplicates],
      published: published.length,
    };
  } finally {
    running = false;
    await Promise.all(loops);
    await sub.close();
    if (reader) await reader.close();
    if (writer) await closeClient(writer);
    if (link) {
      await link.close();
      // Best effort, bounded: the replica back on its primary's own port, for the rows after this one.
      await waitUntil(
        `${endpointKey(replica)} to replicate ${endpointKey(primary)} directly`,
        async () => {
          const info = await replicationInfo(replica);
          return infoField(info, 'master_port') === String(primary.port) && infoField(info, 'master_link_status') === 'up';
        },
        10_000,
        20,
      ).catch(() => undefined);
    }
    await configure(replica, REPLICA_CONFIG_DEFAULTS).catch(() => undefined);
  }
}
