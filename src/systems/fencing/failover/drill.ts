/**
 * The replication drill on a 3-primary, 1-replica-each cluster: the fencing C scripts
 * loop on sessions of every shard (the cluster matrix failover drill's loop and judge) while one primary's
 * replication link is cut for real (link.ts), the primary is SIGKILLed by its PID and its lagging
 * replica takes over at once (CLUSTER FAILOVER TAKEOVER). Everything the old primary acknowledged
 * after the cut is gone: without the remedy the new primary issues those generations again; with it
 * (WAIT after every call) none of them was ever handed out. A replica of another shard is then
 * moved to the new primary (CLUSTER REPLICATE), so the remedy can confirm writes again and the
 * drill shows it does. A FailoverPatch (patch.ts: a mutant's, or a CLI variant's) changes the
 * pods' client; the checks (checks.ts) judge every run alike and name what broke as the spec does.
 */
import { closeClient, createClient, nodeClient, type NodeInfo, type Topology } from '../../../valkey/index.js';
import { waitUntil } from '../../../valkey/wait.js';
import { keySlot } from '../../../valkey/slots.js';
import { newGenerationKey, newLeaseKey } from '../keys.js';
import type { FencingScripts } from '../scripts.js';
import { currentSlotMap, endpointKey, readSlotMap, type Endpoint } from '../../../valkey/cluster-map.js';
import { sleep } from '../cluster-matrix/stats.js';
import { judgeSession } from '../cluster-matrix/drills/judge.js';
import { startSessionLoop } from '../cluster-matrix/drills/loop.js';
import { namesOnEvery } from '../cluster-matrix/drills/failover.js';
import type { CallRecord } from '../cluster-matrix/drills/outcomes.js';
import type { ConfirmOptions } from '../../../valkey/scripts/eval-confirmed.js';
import { InfrastructureFault } from '../../../valkey/fault.js';
import { routeThroughProxy } from './link.js';
import { patchedConfirm, type FailoverPatch } from './patch.js';
import { brokenChecks, duplicateGenerations, monotonicBreaks, releasedSeenAgain, type DrillCheck } from './checks.js';

export interface FailoverDrillOptions {
  /** Fresh per drill: every drill starts from empty counters. */
  readonly community: string;
  /** The remedy, or null: the scripts as they ship (no WAIT). */
  readonly confirm: ConfirmOptions | null;
  /** Applied to `confirm` (a mutant's patch, a CLI variant); the checks never see it. */
  readonly patch?: FailoverPatch;
  /** How long the link is down before the kill (the issue measured 500 ms). */
  readonly cutMs?: number;
  readonly sessionsPerShard?: number;
  /** Each phase as it starts (progress lines). */
  readonly log?: (line: string) => void;
}

export interface FailoverDrillResult {
  readonly victim: string;
  readonly newPrimary: string;
  /** A replica of another shard was moved to the new primary (the remedy can confirm again). */
  readonly redundancyRestored: boolean;
  readonly calls: number;
  readonly outcomes: Readonly<Record<'applied' | 'refused' | 'unknown', number>>;
  /** Unknown because WAIT did not confirm the replica (the remedy's own verdict). */
  readonly unconfirmed: number;
  /**
   * Acquires on the victim's sessions started after the cut took effect and told "applied" before
   * the kill: what the failover loses. (By their start: a call that began before the cut may have
   * been confirmed by the replica's last ACK and still be answered after the cut, which WAIT 1
   * made a false red once in two quick starts under two burners.)
   */
  readonly appliedAfterCut: number;
  /** Acquires on the victim's sessions told "applied" after the takeover. */
  readonly appliedAfterTakeover: number;
  readonly generations: number;
  /** Generations told "applied" to two different calls (counted over every call, past the judge's first finding). */
  readonly duplicates: number;
  /** A lease whose release was told "applied" seen held again (the "a lease that had been released came back"). */
  readonly releasedLeasesBack: number;
  /** Acquires told a generation not above an earlier one of their session (T2, duplicates included). */
  readonly monotonicBreaks: number;
  /** The checks that fired, by the spec's names (checks.ts): what a mutant is killed by. */
  readonly broken: readonly DrillCheck[];
  /** Why the victim's sessions' calls failed, by reason (first 90 characters), count. */
  readonly failureReasons: Readonly<Record<string, number>>;
  readonly findings: string[];
  readonly errors: string[];
  /** Kill → the first reply on every victim session. */
  readonly resumeMs: number | null;
  /** What the drill observed, session by session, for trace validation (failover/tracecheck.ts). */
  readonly observed: DrillObservation;
}

/** One session's calls as the client reported them, and its keyspace as read at the end. */
export interface SessionObservation {
  readonly session: string;
  /** Its slot is the victim's: the failover happened under it. */
  readonly victim: boolean;
  readonly calls: readonly CallRecord[];
  readonly final: { readonly lease: { readonly owner: string; readonly gen: number } | null; readonly counter: number };
}

export interface DrillObservation {
  readonly sessions: readonly SessionObservation[];
  /** Date.now() at the SIGKILL and when the replica reported itself primary. */
  readonly killAt: number;
  readonly takeoverAt: number;
}

export const RESUME_BOUND_MS = 20_000;

async function onlineReplicas(primary: Endpoint): Promise<Endpoint[]> {
  const c = nodeClient(primary);
  try {
    const info = await c.info('replication');
    return [...info.matchAll(/^slave\d+:ip=([^,]+),port=(\d+),state=online/gm)].map((m) => ({ host: m[1]!, port: Number(m[2]) }));
  } finally {
    await closeClient(c);
  }
}

const nodeAt = (topology: Topology, e: Endpoint): NodeInfo | undefined => topology.nodes.find((n) => n.host === e.host && n.port === e.port);

async function adminCall(e: Endpoint, ...args: string[]): Promise<unknown> {
  const c = nodeClient(e);
  try {
    return await c.call(args[0]!, ...args.slice(1));
  } finally {
    await closeClient(c);
  }
}

/** The cluster did not settle after the takeover: a fault of the run (not-run), not a finding. */
function stalled(reason: string): InfrastructureFault {
  return new InfrastructureFault({ kind: 'timeout', reason });
}

async function settled(p: Promise<void>): Promise<void> {
  try {
    await p;
  } catch (err) {
    throw stalled((err as Error).message);
  }
}

/** One node's view: its cluster_state, its epochs, and who its slot map says serves `slot`. */
async function viewOf(e: Endpoint, slot: number): Promise<{ ok: boolean; owner: string | null; currentEpoch: number; line: string }> {
  const c = nodeClient(e);
  try {
    const info = String(await c.call('CLUSTER', 'INFO'));
    const f = (k: string) => new RegExp(`^${k}:(\\S+)`, 'm').exec(info)?.[1] ?? '?';
    const map = await readSlotMap(c);
    let owner: string | null = null;
    try {
      owner = endpointKey(map.owner(slot));
    } catch {
      /* the slot is not served: owner stays null */
    }
    return {
      ok: f('cluster_state') === 'ok',
      owner,
      currentEpoch: Number(f('cluster_current_epoch')) || 0,
      line: `${endpointKey(e)} state ${f('cluster_state')} epoch ${f('cluster_current_epoch')}/${f('cluster_my_epoch')} slot ${slot} → ${owner ?? 'none'}`,
    };
  } catch (err) {
    return { ok: false, owner: null, currentEpoch: 0, line: `${endpointKey(e)} ${(err as Error).message}` };
  } finally {
    await closeClient(c);
  }
}

/**
 * Waits until every live primary has taken the new primary's claim (the victim's slot routed to it)
 * and says cluster ok: before that a node still owning the slot to the dead primary answers
 * CLUSTERDOWN for every key, its own included. Returns the time since the takeover; past the bound,
 * a fault of the run naming what each node still saw (never a verdict on the scripts).
 */
async function servingEverywhere(primaries: readonly Endpoint[], newPrimary: Endpoint, slot: number, since: number, log: (line: string) => void): Promise<number> {
  const want = endpointKey(newPrimary);
  let bumped = false;
  for (const deadline = since + RESUME_BOUND_MS; ; await sleep(50)) {
    const views = await Promise.all(primaries.map((p) => viewOf(p, slot)));
    if (views.every((v) => v.ok && v.owner === want)) return Date.now() - since;
    if (Date.now() > deadline) throw stalled(`the cluster did not settle within ${RESUME_BOUND_MS} ms of the takeover: ${views.map((v) => v.line).join('; ')}`);
    // Settling takes 20–130 ms under two burners. Seen once in ten quick starts: the promoted
    // replica kept the epoch it had as a replica, equal to its dead primary's (the greatest), so the
    // others never took its claim (they want a greater one) and nothing resolves the tie with a
    // dead node. BUMPEPOCH alone answers STILL then; after another primary bumps, the new one's is
    // no longer the greatest and its own BUMPEPOCH takes a fresh, greater epoch.
    if (!bumped && Date.now() - since > NUDGE_AFTER_MS) {
      bumped = true;
      const other = primaries.find((p) => endpointKey(p) !== want)!;
      const first = String(await adminCall(other, 'CLUSTER', 'BUMPEPOCH').catch((e: Error) => e.message));
      const epoch = Number(/\d+/.exec(first)?.[0] ?? 0);
      await waitUntil(`${want} to hear of epoch ${epoch}`, async () => (await viewOf(newPrimary, slot)).currentEpoch >= epoch, Math.max(0, deadline - Date.now()), 20).catch(() => undefined);
      const second = String(await adminCall(newPrimary, 'CLUSTER', 'BUMPEPOCH').catch((e: Error) => e.message));
      log(`not settled after ${NUDGE_AFTER_MS} ms (${views.map((v) => v.line).join('; ')}); CLUSTER BUMPEPOCH on ${endpointKey(other)}: ${first}, then on ${want}: ${second}`);
    }
  }
}

const NUDGE_AFTER_MS = 2_000;

/** null when no primary has a replica left to take over. */
export async function failoverDrill(topology: Topology, scripts: FencingScripts, opts: FailoverDrillOptions): Promise<FailoverDrillResult | null> {
  const map = await currentSlotMap(topology);
  const primaries = [...map.primaries].sort((a, b) => a.port - b.port);
  const withReplicas = await Promise.all(primaries.map(async (p) => ({ p, replicas: await onlineReplicas(p) })));
  const pick = withReplicas.find((x) => x.replicas.length > 0);
  if (!pick) return null;
  const victim = nodeAt(topology, pick.p);
  const replica = pick.replicas[0]!;
  if (victim?.pid === undefined) return null;
  const donor = withReplicas.find((x) => x.p !== pick.p && x.replicas.length > 0)?.replicas[0] ?? null;
  const vKey = endpointKey(victim);

  const t0 = Date.now();
  const log = (what: string) => opts.log?.(`[replication] +${Date.now() - t0} ms ${what}`);
  log(`routing ${endpointKey(replica)}'s replication link from ${vKey} through a proxy`);
  const slotOf = (s: string) => keySlot(newLeaseKey({ community: opts.community, session: s }));
  const sessions = namesOnEvery(map.primaries, map.owner, opts.sessionsPerShard ?? 3, (i) => `s${i}`, slotOf);
  const victimSessions = new Set(sessions.get(vKey)!);
  // Every node a client may take the slot map from: the primaries and their online replicas.
  const peers = [...primaries, ...withReplicas.flatMap((x) => x.replicas)];
  const link = await routeThroughProxy(victim, replica, { peers, slot: slotOf([...victimSessions][0]!) });
  log('link through the proxy; sessions start');
  const others = primaries.filter((p) => endpointKey(p) !== vKey);
  // The drill's client talks to the primary directly: only the replication link passes the proxy.
  const conn = createClient({ kind: 'cluster', seeds: others }, { natMap: link.natMap });
  const confirm = patchedConfirm(opts.confirm, opts.patch);
  const loopOpts = { resend: false, pauseMs: 10, ...(confirm ? { confirmReplicas: confirm } : {}) };
  const loops = [...sessions.values()].flat().map((s) => startSessionLoop(conn, scripts, { community: opts.community, session: s }, loopOpts));
  const errors: string[] = [];
  let redundancyRestored = false;
  let tKill = Number.POSITIVE_INFINITY;
  let tTakeover = Number.POSITIVE_INFINITY;
  try {
    await sleep(600);
    await link.cut();
    log('link cut');
    await sleep(opts.cutMs ?? 500);
    tKill = Date.now();
    process.kill(victim.pid, 'SIGKILL');
    // Immediate promotion with what the replica has (no vote, no wait for the node timeout).
    await adminCall(replica, 'CLUSTER', 'FAILOVER', 'TAKEOVER');
    const rc = nodeClient(replica);
    try {
      for (const deadline = Date.now() + RESUME_BOUND_MS; ; await sleep(20)) {
        if (((await rc.call('ROLE')) as unknown[])[0] === 'master') break;
        if (Date.now() > deadline) throw stalled(`${endpointKey(replica)} did not become a primary within ${RESUME_BOUND_MS} ms`);
      }
      tTakeover = Date.now();
      log(`killed ${vKey}; ${endpointKey(replica)} took over`);
      const settleMs = await servingEverywhere([...others, replica], replica, slotOf([...victimSessions][0]!), tTakeover, log);
      log(`every primary routes the victim's slots to ${endpointKey(replica)}, cluster ok, after ${settleMs} ms`);
      if (donor) {
        const id = String(await rc.call('CLUSTER', 'MYID'));
        // Refused ("can only replicate a master") until the donor has heard of the promotion by gossip.
        await settled(waitUntil(`${endpointKey(donor)} to accept CLUSTER REPLICATE`, async () => (await adminCall(donor, 'CLUSTER', 'REPLICATE', id)) === 'OK', RESUME_BOUND_MS, 20));
        // Online is enough: WAIT confirms each write. (waitReplicasInSync wants the offsets equal,
        // which the replica's once-a-second ACK rarely shows while the sessions keep writing.)
        await settled(waitUntil(`${endpointKey(donor)} to replicate ${endpointKey(replica)}`, async () => (await onlineReplicas(replica)).length > 0, RESUME_BOUND_MS, 20));
        redundancyRestored = true;
        log(`${endpointKey(donor)} moved to the new primary, online`);
      }
    } finally {
      await closeClient(rc);
    }
    const resumed = () => [...victimSessions].every((s) => loops.find((l) => l.session === s)!.calls.some((c) => c.reply && c.startedAt > tTakeover));
    for (const deadline = tKill + RESUME_BOUND_MS; Date.now() < deadline && !resumed(); ) await sleep(50);
    log(resumed() ? 'every victim session answered again' : 'the victim sessions did not all answer again');
    await sleep(600);
  } finally {
    await Promise.all(loops.map((l) => l.stop()));
    log('sessions stopped');
    await closeClient(conn);
    await link.close();
  }

  log('judging');
  const calls: CallRecord[] = loops.flatMap((l) => l.calls);
  errors.push(...loops.flatMap((l) => l.errors));
  const findings: string[] = [];
  const sessionsSeen: SessionObservation[] = [];
  let generations = 0;
  // The real keyspace, read from the node that serves each session's slot now: the new primary
  // for the victim's sessions, their own primary for the others'. Straight to that node, not
  // through a slot map: gossip slower than any bound under load left a node routing the victim's
  // slots to the dead primary's port, and the read died with "Connection is closed." (once in three
  // quick starts under two burners, after a bounded wait for the routes and a retried read). A
  // node that does not serve the slot answers MOVED, and the drill fails on it: not hidden.
  const readerOf = new Map<string, ReturnType<typeof nodeClient>>();
  for (const [owner, names] of sessions) {
    const reader = nodeClient(owner === vKey ? replica : primaries.find((p) => endpointKey(p) === owner)!);
    for (const s of names) readerOf.set(s, reader);
  }
  try {
    for (const l of loops) {
      const ref = { community: opts.community, session: l.session };
      const reader = readerOf.get(l.session)!;
      const [lease, counter] = [await reader.get(newLeaseKey(ref)), await reader.get(newGenerationKey(ref))];
      const at = lease?.lastIndexOf(':') ?? -1;
      const final = { lease: lease && at > 0 ? { owner: lease.slice(0, at), gen: Number(lease.slice(at + 1)) } : null, counter: Number(counter ?? 0) };
      sessionsSeen.push({ session: l.session, victim: victimSessions.has(l.session), calls: [...l.calls], final });
      const v = judgeSession(l.session, l.calls, final);
      findings.push(...v.findings);
      generations += new Set(v.issued).size;
    }
  } finally {
    await Promise.all([...new Set(readerOf.values())].map((c) => closeClient(c)));
  }
  const firstAfter = [...victimSessions].map((s) => loops.find((l) => l.session === s)!.calls.find((c) => c.reply && c.startedAt > tTakeover)?.endedAt);
  const resumeMs = firstAfter.every((t) => t !== undefined) ? Math.max(...firstAfter.map((t) => t! - tKill)) : null;
  if (resumeMs === null) errors.push(`the sessions on ${vKey}'s slots got no reply within ${RESUME_BOUND_MS} ms of the takeover`);
  const count = (o: CallRecord['outcome']) => calls.filter((c) => c.outcome === o).length;
  const releasedLeasesBack = loops.reduce((n, l) => n + releasedSeenAgain(l.calls), 0);
  const breaks = loops.reduce((n, l) => n + monotonicBreaks(l.calls), 0);
  const victimAcquiresOk = calls.filter((c) => victimSessions.has(c.session) && c.op === 'acquire' && c.reply?.kind === 'ok');
  return {
    victim: vKey,
    newPrimary: endpointKey(replica),
    redundancyRestored,
    calls: calls.length,
    outcomes: { applied: count('applied'), refused: count('refused'), unknown: count('unknown') },
    unconfirmed: calls.filter((c) => c.outcome === 'unknown' && /WAIT/.test(c.failure ?? '')).length,
    appliedAfterCut: victimAcquiresOk.filter((c) => c.startedAt > link.cutAt! && c.endedAt <= tKill).length,
    appliedAfterTakeover: victimAcquiresOk.filter((c) => c.startedAt > tTakeover).length,
    generations,
    duplicates: loops.reduce((n, l) => n + duplicateGenerations(l.calls), 0),
    releasedLeasesBack,
    monotonicBreaks: breaks,
    broken: brokenChecks({ monotonicBreaks: breaks, releasedLeasesBack, findings }),
    failureReasons: calls
      .filter((c) => victimSessions.has(c.session) && c.failure)
      .reduce<Record<string, number>>((m, c) => {
        const k = c.failure!.slice(0, 90);
        m[k] = (m[k] ?? 0) + 1;
        return m;
      }, {}),
    findings,
    errors,
    resumeMs,
    observed: { sessions: sessionsSeen, killAt: tKill, takeoverAt: tTakeover },
  };
}
