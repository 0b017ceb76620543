/**
 * One primary-failover drill on a 3-primary, 1-replica-each cluster: the fencing C scripts loop on
 * sessions of every shard and a subscription client holds topics of every shard while a primary
 * is SIGKILLed by its PID and its replica takes over. Just before the kill, the reply of a call to
 * that primary is dropped (a fault proxy in front of it): the call ran, was replicated, and its
 * caller cannot know — the case a re-sending client gets wrong.
 */
import { createClient, closeClient, nodeClient, type Topology, type NodeInfo } from '../../../../valkey/index.js';
import { FaultProxy } from '../../../../valkey/fault-proxy.js';
import { keySlot } from '../../../../valkey/slots.js';
import { newGenerationKey, newLeaseKey } from '../../keys.js';
import type { FencingScripts } from '../../scripts.js';
import { currentSlotMap, endpointKey, type Endpoint } from '../../../../valkey/cluster-map.js';
import { judgeLedger, type Published } from '../pubsub/ledger.js';
import { ShardedSubscriber } from '../pubsub/subscriber.js';
import { sleep } from '../stats.js';
import { judgeSession } from './judge.js';
import { startSessionLoop } from './loop.js';
import { outcomeOfFailure, type CallRecord } from './outcomes.js';

export interface DrillOptions {
  readonly resend: boolean;
  readonly resubscribe: boolean;
  readonly sessionsPerShard?: number;
  /** The sessions' community: fresh per drill, so every drill starts from empty counters. */
  readonly community: string;
}

export interface DrillResult {
  readonly victim: string;
  /** Kill → first script reply on each of the victim shard's sessions (the slowest). */
  readonly haltMs: number | null;
  /** Kill → the cluster names a new owner for the victim's slots. */
  readonly failoverMs: number;
  /** Longest gap between replies on sessions of the other shards around the kill. */
  readonly otherShardsMaxGapMs: number;
  /** Kill → the victim shard's topics have a subscriber again (server count ≥ 1). */
  readonly subscriptionRecoveryMs: number | null;
  readonly calls: number;
  readonly outcomes: Readonly<Record<'applied' | 'refused' | 'unknown', number>>;
  readonly generations: number;
  readonly findings: string[];
  readonly errors: string[];
  readonly lostMessages: number;
  /** Calls whose reply was lost before the kill (the dropped reply): what a re-sending client gets wrong. */
  readonly unknownBeforeKill: number;
}

/** The bound a shard gets to resume after its primary died; beyond it the drill reports an error. */
export const RESUME_BOUND_MS = 20_000;

async function replicaCount(e: Endpoint): Promise<number> {
  const c = nodeClient(e);
  try {
    return Number(/connected_slaves:(\d+)/.exec(await c.info('replication'))?.[1] ?? 0);
  } finally {
    await closeClient(c);
  }
}

/** A primary that still has a replica to take over, by port order after `skip` such primaries. */
async function pickVictim(topology: Topology, primaries: readonly Endpoint[], skip: number): Promise<NodeInfo | null> {
  const sorted = [...primaries].sort((a, b) => a.port - b.port);
  const withReplica: Endpoint[] = [];
  for (const p of sorted) if ((await replicaCount(p)) > 0) withReplica.push(p);
  if (withReplica.length === 0) return null;
  const v = withReplica[skip % withReplica.length]!;
  return topology.nodes.find((n) => n.port === v.port && n.host === v.host) ?? null;
}

export function namesOnEvery(primaries: readonly Endpoint[], owner: (slot: number) => Endpoint, per: number, make: (i: number) => string, slotOf: (name: string) => number): Map<string, string[]> {
  const out = new Map<string, string[]>(primaries.map((p) => [endpointKey(p), []]));
  for (let i = 0; [...out.values()].some((l) => l.length < per); i++) {
    const n = make(i);
    const l = out.get(endpointKey(owner(slotOf(n))))!;
    if (l.length < per) l.push(n);
  }
  return out;
}

export async function failoverDrill(topology: Topology, scripts: FencingScripts, skip: number, opts: DrillOptions): Promise<DrillResult | null> {
  const map = await currentSlotMap(topology);
  const victim = await pickVictim(topology, map.primaries, skip);
  if (!victim || victim.pid === undefined) return null;
  const vKey = endpointKey(victim);
  const proxy = await new FaultProxy(victim).start();
  const seeds = map.primaries.filter((p) => endpointKey(p) !== vKey);
  const conn = createClient({ kind: 'cluster', seeds }, { natMap: { [vKey]: { host: '127.0.0.1', port: proxy.port } } });
  // Publishes go around the proxy: the reply it drops must be a fencing call's, the one a re-sending client gets wrong.
  const pubConn = createClient({ kind: 'cluster', seeds });
  const sessions = namesOnEvery(
    map.primaries,
    map.owner,
    opts.sessionsPerShard ?? 3,
    (i) => `s${i}`,
    (s) => keySlot(newLeaseKey({ community: opts.community, session: s })),
  );
  const topics = namesOnEvery(map.primaries, map.owner, 2, (i) => `buzz:${opts.community}:channel:${i}`, keySlot);
  const victimSessions = new Set(sessions.get(vKey)!);
  const victimTopics = topics.get(vKey)!;
  const allTopics = [...topics.values()].flat();
  const sub = new ShardedSubscriber(topology, { resubscribe: opts.resubscribe, followMoved: true });
  const published: Published[] = [];
  let publishing = true;
  let n = 0;
  let killedAt = Number.POSITIVE_INFINITY;
  /** Victim topics the server counted a subscriber for after the kill. */
  const back = new Set<string>();
  try {
    for (const t of allTopics) await sub.subscribe(t);
    const loops = [...sessions.values()].flat().map((s) => startSessionLoop(conn, scripts, { community: opts.community, session: s }, { resend: opts.resend, pauseMs: 10 }));
    const publisher = (async () => {
      while (publishing) {
        await Promise.all(
          allTopics.map(async (t) => {
            const payload = `drill#${++n}`;
            // A publish whose reply was lost may have been delivered: receivers -1 (unknown); one never sent is left out.
            const receivers = await pubConn.spublish(t, payload).then(Number, (err: unknown) => (outcomeOfFailure(err).outcome === 'unknown' ? -1 : null));
            if (receivers === null) return;
            if (receivers >= 1 && Date.now() > killedAt) back.add(t);
            published.push({ topic: t, payload, receivers, phase: victimTopics.includes(t) ? 'victim' : 'other', expectSubscribed: true });
          }),
        );
        await sleep(50);
      }
    })();
    await sleep(600);
    // A reply lost on the way back from the victim (the call ran and was replicated), then the kill.
    // Waits for it (a loaded machine may take longer than usual to send the next call).
    // Then a moment for its caller to see the connection go (the call must end before the kill).
    if (await proxy.dropOneReply(3_000)) await sleep(100);
    const tKill = Date.now();
    killedAt = tKill;
    process.kill(victim.pid, 'SIGKILL');
    // Failover: a surviving node names another owner for the victim's slots.
    const victimSlot = keySlot(newLeaseKey({ community: opts.community, session: [...victimSessions][0]! }));
    let failoverMs = Number.NaN;
    for (const deadline = Date.now() + RESUME_BOUND_MS; Date.now() < deadline; await sleep(50)) {
      const now = await currentSlotMap({ nodes: topology.nodes.filter((x) => x.port !== victim.port) }).catch(() => undefined);
      if (now && endpointKey(now.owner(victimSlot)) !== vKey) {
        failoverMs = Date.now() - tKill;
        break;
      }
    }
    const resumed = () => [...victimSessions].every((s) => loops.find((l) => l.session === s)!.calls.some((c) => c.reply && c.endedAt > tKill));
    for (const deadline = tKill + RESUME_BOUND_MS; Date.now() < deadline && !resumed(); ) await sleep(50);
    let subRecovery: number | null = null;
    for (const deadline = tKill + RESUME_BOUND_MS; Date.now() < deadline; await sleep(50)) {
      const ok = victimTopics.every((t) => back.has(t));
      if (ok) {
        subRecovery = Date.now() - tKill;
        break;
      }
    }
    await sleep(400);
    publishing = false;
    await publisher;
    await Promise.all(loops.map((l) => l.stop()));
    await sleep(300);

    const calls: CallRecord[] = loops.flatMap((l) => l.calls);
    const errors = loops.flatMap((l) => l.errors);
    const findings: string[] = [];
    const reader = createClient({ kind: 'cluster', seeds });
    let generations = 0;
    try {
      for (const l of loops) {
        const ref = { community: opts.community, session: l.session };
        const [lease, counter] = [await reader.get(newLeaseKey(ref)), await reader.get(newGenerationKey(ref))];
        const [owner, gen] = lease ? [lease.slice(0, lease.lastIndexOf(':')), Number(lease.slice(lease.lastIndexOf(':') + 1))] : [];
        const v = judgeSession(l.session, l.calls, { lease: owner !== undefined ? { owner, gen: gen! } : null, counter: Number(counter ?? 0) });
        findings.push(...v.findings);
        generations += v.issued.length;
      }
    } finally {
      await closeClient(reader);
    }
    const firstAfter = [...victimSessions].map((s) => loops.find((l) => l.session === s)!.calls.find((c) => c.reply && c.endedAt > tKill)?.endedAt);
    const haltMs = firstAfter.every((t) => t !== undefined) ? Math.max(...firstAfter.map((t) => t! - tKill)) : null;
    if (haltMs === null) errors.push(`dispatch on ${vKey}'s slots did not resume within ${RESUME_BOUND_MS} ms`);
    const others = calls
      .filter((c) => !victimSessions.has(c.session) && c.reply && c.endedAt >= tKill - 500)
      .map((c) => c.endedAt)
      .sort((a, b) => a - b);
    const otherGap = others.slice(1).reduce((m, t, i) => Math.max(m, t - others[i]!), 0);
    await sub.close().catch(() => undefined);
    const ledger = judgeLedger(published, sub.deliveries, new Set(['victim']));
    findings.push(...ledger.lost, ...ledger.duplicates, ...ledger.unexpected, ...ledger.unreachable);
    if (subRecovery === null) findings.push(`the subscriptions of ${vKey}'s topics did not come back within ${RESUME_BOUND_MS} ms of the kill (no error raised)`);
    const count = (o: CallRecord['outcome']) => calls.filter((c) => c.outcome === o).length;
    return {
      victim: vKey,
      haltMs,
      failoverMs,
      otherShardsMaxGapMs: otherGap,
      subscriptionRecoveryMs: subRecovery,
      calls: calls.length,
      outcomes: { applied: count('applied'), refused: count('refused'), unknown: count('unknown') },
      generations,
      findings,
      errors,
      lostMessages: ledger.lost.length,
      unknownBeforeKill: calls.filter((c) => c.outcome === 'unknown' && c.endedAt < tKill).length,
    };
  } finally {
    publishing = false;
    await sub.close().catch(() => undefined);
    await closeClient(conn);
    await closeClient(pubConn);
    await proxy.stop();
  }
}
