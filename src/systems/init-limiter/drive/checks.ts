/**
 * The reference server's properties as checks over real HTTP, each read only from outside (replies,
 * bytes received, a socket closed or not, /metrics). A check names the mutation points whose seed
 * bug it catches; with the control endpoint it forces the race that decides (hold points, the manual
 * clock), without one only the real-time checks run. `server` is the configuration a check assumes:
 * the tests start the reference server with it; a team pointing `--url` at its own server configures
 * it so (a check whose assumption /metrics contradicts is not run, never passed).
 */
import type { InitLimiterServerOptions } from '../server/options.js';
import type { PartName } from '../server/parts.js';
import { CheckRun, chunkBudgetMs, type CheckRunOptions } from './check-kit.js';
import { stallPayloadBytes } from './kernel-buffers.js';
import type { MetricsSample } from './metrics-reader.js';
import { missingVersions } from './sse.js';
import type { StreamClient } from './stream-client.js';

export type CheckStatus = 'held' | 'broken' | 'not-run';

export interface CheckOutcome {
  readonly status: CheckStatus;
  /** What was observed, in one line. */
  readonly observed: string;
}

export interface Check {
  readonly id: string;
  /** The property, in a sentence. */
  readonly property: string;
  /** The mutation points whose seed bug this check catches. */
  readonly catches: readonly PartName[];
  /** The spec's invariants (tla/init-limiter) this check reads on the real server, from outside. */
  readonly invariants: readonly string[];
  /** 'required': forces a race through /_control; 'optional': uses it when present. */
  readonly control: 'required' | 'optional';
  /** The server this check assumes (limiter, data set, heartbeat). */
  readonly server: InitLimiterServerOptions;
  /** Requirements on the limits /metrics reports; a message when unmet (→ not run). */
  readonly unmet?: (run: CheckRun) => string | null;
  run(run: CheckRun): Promise<CheckOutcome>;
}

const held = (observed: string): CheckOutcome => ({ status: 'held', observed });
const broken = (observed: string): CheckOutcome => ({ status: 'broken', observed });
const verdict = (ok: boolean, observed: string): CheckOutcome => (ok ? held(observed) : broken(observed));

const SMALL = { flags: 4, valueBytes: 32 } as const;

/** A data set a stalled client's kernel buffers cannot absorb (kernel-buffers.ts), in 64 flags. */
function stallData(extra = 1 << 20): { flags: number; valueBytes: number } {
  return { flags: 64, valueBytes: Math.ceil(stallPayloadBytes(extra) / 64) };
}

/**
 * The seed's floor and slice (64 KB/s, 1 MiB pieces: 16 s + 2 s slack per piece). Smaller pieces
 * would cut healthy readers on Linux: a writer blocked on a full socket is woken only once a third
 * of the send buffer is free, so a steady reader's sender sees progress in bursts of 1.5–1.7 MB
 * (measured on loopback) — a piece's budget must span a burst at the reader's rate.
 */
const LIMITS = { floorBytesPerSec: 65_536, slackMs: 2_000, chunkBytes: 1 << 20 } as const;
/** The steady readers' rate: three times the floor (a piece's 18 s span a 3.4 MB burst at it). */
const READER_RATE = 3 * LIMITS.floorBytesPerSec;
/** drip-bounded-by-cap's cap, step, and the steps it reads: up to the cap and a piece's budget past it, and two more. */
const DRIP_CAP_MS = 20_000;
const DRIP_STEP_MS = 1_000;
const DRIP_STEPS = Math.ceil((DRIP_CAP_MS + (LIMITS.chunkBytes * 1000) / LIMITS.floorBytesPerSec + LIMITS.slackMs) / DRIP_STEP_MS) + 2;

function needsSlots(n: number, queued = 0): (r: CheckRun) => string | null {
  return (r) => {
    if (!r.limits.enabled) return 'the limiter is disabled';
    if (r.limits.maxConcurrent !== n) return `needs maxConcurrent ${n} (the server has ${r.limits.maxConcurrent})`;
    if (r.limits.maxQueued < queued) return `needs maxQueued ≥ ${queued} (the server has ${r.limits.maxQueued})`;
    return null;
  };
}

function needsStallPayload(r: CheckRun): string | null {
  const need = stallPayloadBytes(0);
  return r.limits.valueBytes < need ? `needs a data set over ${need} bytes (what a stalled client's kernel buffers absorb); the server's is ${r.limits.valueBytes}` : null;
}

function all(...fs: Array<(r: CheckRun) => string | null>): (r: CheckRun) => string | null {
  return (r) => {
    for (const f of fs) {
      const m = f(r);
      if (m) return m;
    }
    return null;
  };
}

/**
 * A little real time between a paced reader's steps. A reader that copies step after step within
 * microseconds looks fast to the kernel, which then grows its receive buffer by megabytes (and the
 * server finishes into the kernel what the check means to keep in flight); spaced, it stays at
 * about two steps.
 */
const spaced = () => new Promise<void>((r) => setTimeout(r, 5));

const counter = (m: MetricsSample, name: string, surface?: string) => (surface ? m.value(`initlimiter_${name}`, { surface }) : m.sum(`initlimiter_${name}`));
const count = (s: StreamClient, event: string) => s.events.filter((e) => e.event === event).length;
const storeVersion = async (r: CheckRun) => (await r.metrics()).value('initlimiter_store_version');

/** Waits until a delivery write is blocked on the kernel (a stalled client's buffers are full). */
function blocked(r: CheckRun): Promise<MetricsSample> {
  return r.until('a delivery write blocked on a client that does not read', (m) => m.value('initlimiter_writes_pending') >= 1);
}

/** Holds one slot for the check's length: a stream parked at send.begin (control), or a stalled FDv1 client. */
async function occupySlot(r: CheckRun): Promise<void> {
  if (r.control) {
    const before = (await r.ctl().point('send.begin')).parked;
    await r.ctl().hold('send.begin');
    r.onEnd(() => r.ctl().release('send.begin'));
    await r.stream();
    await r.ctl().wait('send.begin', { parked: before + 1 });
    return;
  }
  await r.stream({ path: '/all', read: 'stalled' });
  await blocked(r);
}

export const CHECKS: readonly Check[] = [
  {
    id: 'slot-held-across-send',
    invariants: ['Inv_SendHoldsSlot'],
    property: 'a stream holds its slot across the actual send: while a stalled FDv1 client has not received its basis, a second full-basis client is shed',
    catches: ['Stream_HoldSlotAcrossSend'],
    control: 'optional',
    server: { limiter: { maxConcurrent: 1, ...LIMITS }, data: stallData(), heartbeatMs: 0 },
    unmet: all(needsSlots(1), needsStallPayload),
    async run(r) {
      const a = await r.stream({ path: '/all', read: 'stalled' });
      await a.waitFor(() => a.bodyBytes > 0);
      const inUse = (await r.metrics()).value('initlimiter_slots_in_use');
      const b = await r.stream({ path: '/all', client: 'second' });
      // Shed (closed, no byte) or admitted (bytes); a shed stream left open is decided once it holds all the server sent.
      await b.waitFor(() => b.isClosed || b.bodyBytes > 0, 10_000, r.drained('second'));
      return verdict(
        inUse === 1 && b.isClosed && b.bodyBytes === 0,
        `stalled FDv1 client mid-basis: slots in use ${inUse}; a second client ${b.isClosed && b.bodyBytes === 0 ? 'shed (closed, no bytes)' : `admitted (${b.bodyBytes} body bytes)`}`,
      );
    },
  },
  {
    id: 'resident-bases-bounded',
    invariants: ['Inv_SendHoldsSlot'],
    property: "the budget bounds resident payloads: stalled FDv1 clients at distinct store versions keep at most maxConcurrent serialized bases in memory (the seed's distinct-basis memory slope)",
    catches: ['Stream_HoldSlotAcrossSend'],
    control: 'required',
    server: { limiter: { maxConcurrent: 2, ...LIMITS }, data: stallData(), heartbeatMs: 0 },
    unmet: all(needsSlots(2), needsStallPayload),
    async run(r) {
      const n = 5;
      for (let i = 0; i < n; i++) {
        await r.ctl().publish();
        const shed = counter(await r.metrics(), 'shed_total');
        const s = await r.stream({ path: '/all', read: 'stalled' });
        // Admitted (its basis under way) or shed as the server counts it. Whether a shed stream is
        // closed is shed-stream-closed's to judge: waiting for its close here cost a patched server
        // that leaves it open (I10) the whole timeout per client.
        await r.until(`client ${i + 1} admitted or shed`, (m) => s.bodyBytes > 0 || s.isClosed || counter(m, 'shed_total') > shed, 10_000).catch(() => undefined);
      }
      const m = await r.metrics();
      const bases = m.value('initlimiter_bases_resident');
      return verdict(
        bases <= r.limits.maxConcurrent,
        `${n} stalled FDv1 clients at ${n} versions: ${bases} bases resident (${(m.value('initlimiter_basis_bytes_resident') / 1e6).toFixed(1)} MB), ${m.value('initlimiter_slots_in_use')} slots in use, budget ${r.limits.maxConcurrent}`,
      );
    },
  },
  {
    id: 'slot-released-after-healthy-basis',
    invariants: ['Inv_NoLeakedSlot'],
    property: 'the slot of a healthy basis is released when its last byte is written, while the client stays connected — even when the end-of-basis flush wins the race against the release',
    catches: ['Stream_CaptureDoneBeforeClose'],
    control: 'required',
    server: { limiter: { maxConcurrent: 1, ...LIMITS }, data: SMALL, heartbeatMs: 0 },
    unmet: needsSlots(1),
    async run(r) {
      const c = r.ctl();
      const flushed = (await c.point('basis.flushed')).arrivals;
      await c.hold('basis.closeBatch');
      r.onEnd(() => c.release('basis.closeBatch'));
      const a = await r.stream();
      await a.waitFor(() => a.has('payload-transferred'));
      await c.wait('basis.flushed', { arrivals: flushed + 1 });
      await c.wait('basis.closeBatch', { parked: 1 });
      await c.release('basis.closeBatch');
      const inUse = (await r.metrics()).value('initlimiter_slots_in_use');
      const b = await r.stream();
      await b.waitFor(() => b.has('payload-transferred') || b.isClosed);
      return verdict(
        inUse === 0 && !a.isClosed && b.has('payload-transferred'),
        `flush before the release select, client still connected: slots in use ${inUse}; the next full-basis client ${b.has('payload-transferred') ? 'got its basis' : 'was shed'}`,
      );
    },
  },
  {
    id: 'serialize-per-version',
    invariants: ['Inv_SerializeOwnVersion'],
    property: 'a serialization is shared only between callers of the same store version: a client admitted after a publish gets that version, not an older serialization in flight',
    catches: ['Serialize_KeyedByVersion'],
    control: 'required',
    server: { limiter: { maxConcurrent: 2, ...LIMITS }, data: SMALL, heartbeatMs: 0 },
    unmet: needsSlots(2),
    async run(r) {
      const c = r.ctl();
      const entered = (await c.point('serialize.enter')).arrivals;
      // a's serialization flight stays joinable while a waits at its return (Handoff not yet).
      await c.hold('serialize.return', 1, 'a');
      r.onEnd(() => c.release('serialize.return', undefined, 'a'));
      const a = await r.stream({ client: 'a' });
      await c.wait('serialize.return', { parked: 1 }, 10_000, 'a');
      const v = await c.publish();
      const b = await r.stream({ client: 'b' });
      await c.wait('serialize.enter', { arrivals: entered + 2 });
      await c.release('serialize.return', undefined, 'a');
      await b.readUntil(() => b.has('payload-transferred'));
      await a.readUntil(() => a.has('payload-transferred') && a.has('patch'));
      const vb = b.view();
      const lost = missingVersions(vb, v);
      return verdict(
        vb.basisVersion !== null && vb.basisVersion >= v && lost.length === 0 && missingVersions(a.view(), v).length === 0,
        `client admitted at version ${v} got a basis of version ${vb.basisVersion}; versions never received: [${lost.join(', ')}]`,
      );
    },
  },
  {
    id: 'formats-serialize-apart',
    // The spec keeps one serialization per version (no formats): a caller given another format's is
    // not given its own, which is what Inv_SerializeOwnVersion reads.
    invariants: ['Inv_SerializeOwnVersion'],
    property: 'an FDv1 client and an FDv2 client admitted at the same store version never share a serialization: each gets its own format',
    // I16's (the key without the format), not I3's (the key without the version): catches lists I1–I12's points.
    catches: [],
    control: 'required',
    server: { limiter: { maxConcurrent: 2, ...LIMITS }, data: SMALL, heartbeatMs: 0 },
    unmet: needsSlots(2),
    async run(r) {
      const c = r.ctl();
      const entered = (await c.point('serialize.enter')).arrivals;
      // v2's serialization flight stays joinable while it waits at its return.
      await c.hold('serialize.return', 1, 'v2');
      r.onEnd(() => c.release('serialize.return', undefined, 'v2'));
      const v2 = await r.stream({ client: 'v2' });
      await c.wait('serialize.return', { parked: 1 }, 10_000, 'v2');
      const v1 = await r.stream({ path: '/all', client: 'v1' });
      await c.wait('serialize.enter', { arrivals: entered + 2 });
      await c.release('serialize.return', undefined, 'v2');
      await v1.readUntil(() => v1.has('put') || v1.has('payload-transferred') || v1.isClosed);
      await v2.readUntil(() => v2.has('payload-transferred') || v2.has('put') || v2.isClosed);
      const got = (s: StreamClient) => (s.has('put') ? 'an FDv1 put' : s.has('payload-transferred') ? 'an FDv2 basis' : s.isClosed ? 'closed' : 'nothing');
      return verdict(v1.has('put') && !v1.has('server-intent') && v2.has('payload-transferred') && !v2.has('put'), `at one store version, /all got ${got(v1)}, /sdk/stream got ${got(v2)}`);
    },
  },
  {
    id: 'limiter-off-feeds-complete',
    // The spec models the limiter on; off, its own properties: no slot, every feed whole.
    invariants: [],
    property:
      'with the limiter disabled (the default of every deployment that does not configure it) no slot is taken and every feed is whole: an FDv2 and an FDv1 client serializing across a publish, and one up to date, each get their own format, then every delta up to the store’s version',
    catches: [],
    control: 'required',
    server: { data: SMALL, heartbeatMs: 0 },
    unmet: (r) => (r.limits.enabled ? 'needs the limiter disabled' : null),
    async run(r) {
      const c = r.ctl();
      const entered = (await c.point('serialize.enter')).arrivals;
      await c.hold('serialize.return', 1, 'v2');
      r.onEnd(() => c.release('serialize.return', undefined, 'v2'));
      const v2 = await r.stream({ client: 'v2' });
      await c.wait('serialize.return', { parked: 1 }, 10_000, 'v2');
      const v1 = await r.stream({ path: '/all', client: 'v1' });
      await c.wait('serialize.enter', { arrivals: entered + 2 });
      await c.publish();
      await c.release('serialize.return', undefined, 'v2');
      const cur = await r.stream({ basis: await storeVersion(r) });
      const last = await c.publish();
      const streams = [
        ['FDv2', v2, 'payload-transferred'],
        ['FDv1', v1, 'put'],
        ['up to date', cur, 'server-intent'],
      ] as const;
      const seen: string[] = [];
      let ok = true;
      for (const [name, s, basis] of streams) {
        // Until the last delta, or no byte for half a second (a lost delta never comes).
        await s.readUntilSettled(() => s.has(basis) && s.view().deltas.includes(last), 500, 10_000);
        const v = s.view();
        const lost = missingVersions(v, last);
        const wrong = name === 'FDv1' ? s.has('server-intent') : name === 'FDv2' ? s.has('put') : false;
        ok &&= v.basisComplete && lost.length === 0 && v.problems.length === 0 && !wrong && !s.isClosed;
        seen.push(
          `${name} ${wrong ? 'in the other format' : v.basisComplete ? `basis ${v.basisVersion}` : 'no whole basis'}${lost.length > 0 ? `, versions never received [${lost.join(', ')}]` : ''}${v.problems[0] ? `, ${v.problems[0]}` : ''}`,
        );
      }
      const m = await r.metrics();
      const slots = counter(m, 'acquired_total');
      const shed = counter(m, 'shed_total');
      const polled = await r.poll('/sdk/poll');
      const pollOk = polled.kind === 'response' && polled.status === 200 && (polled.json as { version?: number } | null)?.version === last;
      return verdict(
        ok && slots === 0 && shed === 0 && m.value('initlimiter_slots_in_use') === 0 && pollOk,
        `limiter off, store at version ${last}: ${seen.join('; ')}; ${slots} slots taken, ${shed} shed; a full poll ${polled.kind === 'response' ? `${polled.status} of version ${String((polled.json as { version?: number } | null)?.version)}` : polled.kind}`,
      );
    },
  },
  {
    id: 'peek-single-flight-per-basis',
    invariants: [],
    property: 'the store read is single-flighted per basis: same-basis clients share one read, a client at another basis reads on its own',
    catches: ['Peek_KeyedByBasis'],
    control: 'required',
    server: { limiter: { maxConcurrent: 1, ...LIMITS }, data: SMALL, heartbeatMs: 0 },
    async run(r) {
      const c = r.ctl();
      const m0 = await r.metrics();
      const entered = (await c.point('peek.enter')).arrivals;
      // a1's peek stays in flight (joinable) while a1 waits at its return (Decide not yet).
      await c.hold('peek.return', 1, 'a1');
      r.onEnd(() => c.release('peek.return', undefined, 'a1'));
      await r.stream({ basis: 0, client: 'a1' });
      await c.wait('peek.return', { parked: 1 }, 10_000, 'a1');
      await r.stream({ basis: 0, client: 'a2' });
      await r.stream({ basis: 0, client: 'a3' });
      await r.stream({ basis: 1_000_000, client: 'c' });
      await c.wait('peek.enter', { arrivals: entered + 4 });
      const m = await r.metrics();
      const flights = m.value('initlimiter_peek_flights_total') - m0.value('initlimiter_peek_flights_total');
      const joins = m.value('initlimiter_peek_joins_total') - m0.value('initlimiter_peek_joins_total');
      return verdict(flights === 2 && joins === 2, `3 clients at basis 0 and 1 at another basis: ${flights} store reads, ${joins} joins (want 2 and 2)`);
    },
  },
  {
    id: 'up-to-date-not-fooled-by-older-peek',
    invariants: ['Inv_UpToDateRecognised'],
    property: 'a client at the current basis is told it is up to date (no slot, no full basis) even while a peek of an older basis, read before the publish, is in flight',
    catches: ['Peek_KeyedByBasis'],
    control: 'required',
    server: { limiter: { maxConcurrent: 1, ...LIMITS }, data: SMALL, heartbeatMs: 0 },
    async run(r) {
      const c = r.ctl();
      await c.hold('peek.return', 1, 'a');
      r.onEnd(() => c.release('peek.return', undefined, 'a'));
      await r.stream({ basis: 0, client: 'a' });
      await c.wait('peek.return', { parked: 1 }, 10_000, 'a');
      const v = await c.publish();
      const b = await r.stream({ basis: v, client: 'b' });
      await b.waitFor(() => b.has('server-intent') || b.isClosed);
      await b.readUntil(() => b.view().intent === 'none' || b.has('payload-transferred') || b.isClosed);
      const vb = b.view();
      return verdict(
        vb.intent === 'none' && vb.basisVersion === v && !b.isClosed,
        `client at the current basis ${v}, an older peek in flight: ${vb.intent === 'full' ? `sent a full basis of version ${vb.basisVersion}` : b.isClosed ? 'closed' : `intent ${vb.intent} at ${vb.basisVersion}`}`,
      );
    },
  },
  {
    id: 'no-lost-delta-after-queue-wait',
    invariants: ['Inv_NoLostDelta'],
    property: 'a client that waited in the queue across a publish is initialized from the store as of its admission: no delta lost',
    catches: ['Serialize_ReadsAfterAdmit'],
    control: 'required',
    server: { limiter: { maxConcurrent: 1, maxQueued: 1, ...LIMITS }, data: SMALL, heartbeatMs: 0 },
    unmet: needsSlots(1, 1),
    async run(r) {
      const c = r.ctl();
      await c.hold('send.begin');
      r.onEnd(() => c.release('send.begin'));
      const a = await r.stream();
      await c.wait('send.begin', { parked: 1 });
      const queued = (await c.point('queue.enter')).arrivals;
      const b = await r.stream();
      await c.wait('queue.enter', { arrivals: queued + 1 });
      const v = await c.publish();
      await c.release('send.begin');
      await a.readUntil(() => a.has('payload-transferred') && a.has('patch'));
      await b.readUntil(() => b.has('payload-transferred'));
      const vb = b.view();
      const lost = missingVersions(vb, v);
      return verdict(
        vb.basisVersion !== null && vb.basisVersion >= v && lost.length === 0,
        `queued across the publish of version ${v}: basis ${vb.basisVersion}, versions never received [${lost.join(', ')}]`,
      );
    },
  },
  {
    id: 'keepalive-poll-not-cut',
    invariants: ['Inv_KeepAliveNotCut', 'Inv_DeadlineScoped'],
    property: "a gated poll's write deadline is cleared when its handler returns: a later request on the same kept-alive connection is not cut by it",
    catches: ['Poll_ClearDeadlineOnReturn'],
    control: 'optional',
    server: { limiter: { maxConcurrent: 1, ...LIMITS, sendTimeoutMs: 10_000 }, data: SMALL, heartbeatMs: 0 },
    unmet: (r) => (!r.limits.enabled ? 'the limiter is disabled' : null),
    async run(r) {
      const conn = await r.connection();
      const first = await conn.request('/sdk/flags');
      if (first.kind !== 'response' || first.status !== 200) return { status: 'not-run', observed: `the gated poll was not served (${first.kind === 'response' ? first.status : first.kind})` };
      const l = r.limits;
      const armed = (await r.metrics()).value('initlimiter_deadlines_armed');
      // The first reply's deadline is past once a chunk's budget (or the cap) is.
      await r.pass(Math.min(l.sendTimeoutMs, chunkBudgetMs(l)) + 100);
      const v = await storeVersion(r);
      const second = await conn.request(`/sdk/poll?basis=${v}`);
      return verdict(
        armed === 0 && second.kind === 'response' && second.status === 200,
        `after a gated poll returned: ${armed} deadlines armed; the second request on the connection, past the first one's deadline: ${second.kind === 'response' ? `${second.status}` : second.kind}`,
      );
    },
  },
  {
    id: 'busy-stream-past-cap',
    invariants: ['Inv_LiveNotCut', 'Inv_DeadlineScoped'],
    property: 'the deadline exists only during the basis: a stream that keeps receiving deltas well past the cap is not cut',
    catches: ['Deadline_ScopedToDelivery'],
    control: 'required',
    server: { limiter: { maxConcurrent: 1, ...LIMITS, sendTimeoutMs: 4_000 }, data: SMALL, heartbeatMs: 500 },
    async run(r) {
      const a = await r.stream();
      await a.readUntil(() => a.has('payload-transferred'));
      const armed = (await r.until('the basis flushed', (m) => counter(m, 'deliveries_completed_total') > 0)).value('initlimiter_deadlines_armed');
      const rounds = 6;
      const step = r.limits.sendTimeoutMs / 4;
      for (let i = 1; i <= rounds; i++) {
        await r.pass(step);
        await r.ctl().publish();
        await a.waitFor(() => count(a, 'patch') >= i);
        if (a.isClosed) break;
      }
      return verdict(
        armed === 0 && !a.isClosed && count(a, 'patch') === rounds,
        `after the basis ${armed} deadlines armed; ${count(a, 'patch')} of ${rounds} deltas over ${(rounds * step) / 1000} s (cap ${r.limits.sendTimeoutMs / 1000} s), ${a.heartbeats} heartbeats; ${a.isClosed ? 'cut' : 'still connected'}`,
      );
    },
  },
  {
    id: 'stall-cut-by-floor',
    invariants: ['Inv_BoundedHold'],
    property: 'a client that stops reading is cut by its per-write budget (bytes / floor + slack), long before the absolute cap, and its slot returns',
    catches: ['Deadline_ReachesSocket'],
    control: 'optional',
    server: { limiter: { maxConcurrent: 1, ...LIMITS, sendTimeoutMs: 40_000 }, data: stallData(), heartbeatMs: 0 },
    unmet: all(needsSlots(1), needsStallPayload, (r) => (chunkBudgetMs(r.limits) * 2 + 200 < r.limits.sendTimeoutMs ? null : 'needs a cap over twice the per-write budget')),
    async run(r) {
      const _a = await r.stream({ read: 'stalled' });
      const step = chunkBudgetMs(r.limits) + 100;
      let waited = 0;
      let cuts = 0;
      for (let i = 0; i < 2 && cuts === 0; i++) {
        await blocked(r);
        cuts += await r.pass(step);
        waited += step;
      }
      const m = await r.metrics();
      return verdict(
        cuts > 0 && m.value('initlimiter_slots_in_use') === 0,
        `stalled client: ${cuts > 0 ? `cut within ${waited} ms` : `not cut after ${waited} ms`} (budget ${step - 100} ms, cap ${r.limits.sendTimeoutMs} ms); slots in use ${m.value('initlimiter_slots_in_use')}`,
      );
    },
  },
  {
    id: 'drip-bounded-by-cap',
    invariants: ['Inv_BoundedHold'],
    property: 'a client reading slowly but steadily above the floor, on a basis too large for the cap, is cut at the cap: no delivery holds its slot unbounded',
    catches: [],
    control: 'required',
    // Beyond what the kernel holds for a reader in steps (kernel-buffers.ts), the reader's intake over
    // every step the check takes (the cap, a piece's budget and two steps more), and a MB of margin:
    // the basis is still being written when the check ends, so a server that lets the delivery run past
    // the cap still holds its slot then. Sized to the cap alone, a server without the cap finished the
    // basis into the kernel before the check ended and its free slot read as bounded.
    server: { limiter: { maxConcurrent: 1, ...LIMITS, sendTimeoutMs: DRIP_CAP_MS }, data: stallData(8 * READER_RATE + READER_RATE * DRIP_STEPS + (1 << 20)), heartbeatMs: 0 },
    unmet: all(needsSlots(1), needsStallPayload, (r) => (r.limits.sendTimeoutMs === DRIP_CAP_MS ? null : `needs a cap of ${DRIP_CAP_MS / 1000} s (the basis is sized to it)`)),
    async run(r) {
      const completed0 = counter(await r.metrics(), 'deliveries_completed_total');
      const a = await r.stream({ read: 'stalled', client: 'drip' });
      const drained = r.drained('drip');
      const l = r.limits;
      const stepBytes = (READER_RATE * DRIP_STEP_MS) / 1000;
      let cuts = 0;
      let steps = 0;
      while (cuts === 0 && steps < DRIP_STEPS && !a.has('payload-transferred')) {
        const got = await a.readBytes(stepBytes, 10_000, () => a.has('payload-transferred'), drained);
        // Nothing more comes and nothing cut the stream: the server gave the delivery up (its slot says whether it is still held).
        if (got === 0 && !a.isClosed && !a.has('payload-transferred')) {
          const inUse = (await r.metrics()).value('initlimiter_slots_in_use');
          return verdict(inUse === 0, `reader at three times the floor: the server stopped sending after ${steps} s with the basis unfinished, the stream open; slots in use ${inUse}`);
        }
        await spaced();
        cuts += await r.pass(DRIP_STEP_MS);
        steps += 1;
      }
      if (cuts > 0 || a.has('payload-transferred'))
        return verdict(
          cuts > 0 && !a.has('payload-transferred'),
          `reader at three times the floor: ${cuts > 0 ? `cut after ${steps} s` : 'completed (basis too small for the check)'} (cap ${l.sendTimeoutMs / 1000} s)`,
        );
      // Neither cut nor complete past the cap: bounded only if the server gave the delivery up — its
      // slot free and its last byte never written (a basis written whole past the cap ran unbounded).
      const m = await r.metrics();
      const inUse = m.value('initlimiter_slots_in_use');
      const finished = counter(m, 'deliveries_completed_total') - completed0;
      return verdict(
        inUse === 0 && finished === 0,
        `reader at three times the floor: neither cut nor complete after ${steps} s (cap ${l.sendTimeoutMs / 1000} s); slots in use ${inUse}; ${finished === 0 ? 'the basis never written whole' : 'the server wrote the whole basis past the cap'}`,
      );
    },
  },
  {
    id: 'steady-reader-completes',
    invariants: ['Inv_SteadyNeverCut'],
    property:
      'a client reading steadily above the floor completes a basis far larger than the kernel buffers and than what a flat per-write timeout lets through, within the cap, and is never cut (FDv1: one large write; FDv2: many events)',
    catches: ['Deadline_ThroughputFloor'],
    control: 'required',
    // The reader takes ~60 s for the basis: under the cap (80 s); what it reads in a quarter of the
    // cap (20 s) plus what the kernel holds for it stays 2 MB short of the basis.
    server: { limiter: { maxConcurrent: 1, ...LIMITS, sendTimeoutMs: 80_000 }, data: stallData(8 * READER_RATE + READER_RATE * 20 + (2 << 20)), heartbeatMs: 0 },
    unmet: all(needsSlots(1), needsStallPayload),
    async run(r) {
      const l = r.limits;
      const seen: string[] = [];
      for (const [path, last] of [
        ['/all', 'put'],
        ['/sdk/stream', 'payload-transferred'],
      ] as const) {
        const client = `steady${path.replaceAll('/', '-')}`;
        const a = await r.stream({ path, read: 'stalled', client });
        let cuts = 0;
        const steps = await a.readSteady({
          bytesPerSec: READER_RATE,
          stepBytes: READER_RATE,
          pacer: {
            kind: 'manual',
            wait: async (ms) => {
              await spaced();
              cuts += await r.pass(ms);
            },
          },
          until: () => cuts > 0 || a.has(last),
          drained: r.drained(client),
        });
        seen.push(
          `${path} ${a.has(last) && cuts === 0 ? `completed in ${steps} s` : cuts > 0 ? `cut after ${steps} s` : a.starved ? `stopped receiving after ${steps} s, not cut, the basis unfinished` : `closed after ${steps} s`}`,
        );
        a.disconnect();
        if (cuts > 0 || !a.has(last)) return broken(`reader at ${READER_RATE / 1024} KB/s (floor ${l.floorBytesPerSec / 1024} KB/s, cap ${l.sendTimeoutMs / 1000} s): ${seen.join('; ')}`);
        await r.until('the slot back', (m) => m.value('initlimiter_slots_in_use') === 0);
      }
      return held(`reader at ${READER_RATE / 1024} KB/s (floor ${l.floorBytesPerSec / 1024} KB/s, cap ${l.sendTimeoutMs / 1000} s) over ${(l.valueBytes / 1e6).toFixed(1)} MB: ${seen.join('; ')}`);
    },
  },
  {
    id: 'partial-basis-never-completed-by-delta',
    invariants: ['Inv_NoTornBasis'],
    property: 'a slow client that pauses mid-basis (for less than its write budget) gets its whole basis before any delta: nothing abandons a partly sent basis',
    catches: ['Stream_NoIdleTimeout'],
    control: 'required',
    server: { limiter: { maxConcurrent: 1, ...LIMITS }, data: stallData(), heartbeatMs: 0 },
    unmet: all(needsSlots(1), needsStallPayload),
    async run(r) {
      const a = await r.stream({ read: 'stalled' });
      await blocked(r);
      const pause = Math.round(chunkBudgetMs(r.limits) * 0.75);
      const cuts = await r.pass(pause);
      const v = await r.ctl().publish();
      // The rest of the basis (megabytes) and the delta: a wait that ends only once bytes stop coming
      // for 10 s, not 10 s after the publish — on a loaded machine the rest alone took longer.
      await a.readUntilSettled(() => a.has('patch') || a.isClosed, 10_000, 60_000);
      const view = a.view();
      return verdict(
        cuts === 0 && view.basisComplete && view.problems.length === 0 && view.deltas.includes(v),
        `paused ${pause} ms mid-basis, then a publish: basis ${view.basisComplete ? 'complete' : `incomplete (${view.basisObjects} objects)`}, ${view.problems[0] ?? 'no event out of place'}`,
      );
    },
  },
  {
    id: 'shed-stream-closed',
    invariants: ['Inv_ShedClosed'],
    property: 'a stream shed for a full budget is closed (the client reconnects with backoff), never left open uninitialized',
    catches: ['Shed_ClosesConnection'],
    control: 'optional',
    server: { limiter: { maxConcurrent: 1, ...LIMITS }, data: SMALL, heartbeatMs: 0 },
    unmet: (r) => needsSlots(1)(r) ?? (r.control ? null : needsStallPayload(r)),
    async run(r) {
      await occupySlot(r);
      const shed0 = counter(await r.metrics(), 'shed_total', 'stream');
      const b = await r.stream();
      await r.until('the stream shed', (m) => counter(m, 'shed_total', 'stream') > shed0);
      if (r.control) await r.ctl().publish();
      await b.waitFor(() => b.isClosed || b.events.length > 0);
      return verdict(b.isClosed && b.events.length === 0, `shed stream: ${b.isClosed ? 'closed' : 'left open'}, ${b.events.length} events (${b.events[0]?.event ?? 'none'})`);
    },
  },
  {
    id: 'up-to-date-exempt',
    invariants: ['Inv_UpToDateNoSlot'],
    property: 'an up-to-date reply (poll, eval poll, stream) takes no slot: served even with the budget full, while a full poll is shed with 503, a jittered Retry-After and a JSON body',
    catches: ['UpToDate_NoSlot'],
    control: 'optional',
    server: { limiter: { maxConcurrent: 1, ...LIMITS }, data: SMALL, heartbeatMs: 0 },
    unmet: (r) => needsSlots(1)(r) ?? (r.control ? null : needsStallPayload(r)),
    async run(r) {
      await occupySlot(r);
      const v = await storeVersion(r);
      const poll = await r.poll(`/sdk/poll?basis=${v}`);
      const evalPoll = await r.poll(`/sdk/poll/eval?basis=${v}`);
      const s = await r.stream({ basis: v });
      await s.waitFor(() => s.events.length > 0 || s.isClosed);
      const full = await r.poll('/sdk/poll');
      const none = (p: typeof poll) => p.kind === 'response' && p.status === 200 && (p.json as { intent?: string } | null)?.intent === 'none';
      const retry = full.kind === 'response' ? Number(full.headers['retry-after']) : Number.NaN;
      const shedOk = full.kind === 'response' && full.status === 503 && Number.isInteger(retry) && retry >= 1 && typeof (full.json as { error?: unknown } | null)?.error === 'string';
      const sv = s.view();
      const show = (p: typeof poll) => (p.kind === 'response' ? String(p.status) : p.kind);
      return verdict(
        none(poll) && none(evalPoll) && sv.intent === 'none' && !s.isClosed && shedOk,
        `budget full: up-to-date poll ${show(poll)}, eval poll ${show(evalPoll)}, stream ${sv.intent ?? (s.isClosed ? 'closed' : 'nothing')}; full poll ${show(full)} Retry-After ${full.kind === 'response' ? full.headers['retry-after'] : '-'}`,
      );
    },
  },
  {
    id: 'stall-cut-at-cap',
    invariants: ['Inv_BoundedHold'],
    property: "a stalled delivery's write deadline reaches the socket: past the cap the connection is cut and the slot returns",
    catches: ['Deadline_ReachesSocket'],
    control: 'optional',
    server: { limiter: { maxConcurrent: 1, ...LIMITS, sendTimeoutMs: 5_000 }, data: stallData(), heartbeatMs: 0 },
    unmet: all(needsSlots(1), needsStallPayload, (r) => ((r.control && r.limits.manualClock) || r.limits.sendTimeoutMs <= 15_000 ? null : 'on a real clock, needs a cap ≤ 15 s')),
    async run(r) {
      const a = await r.stream({ path: '/all', read: 'stalled' });
      await blocked(r);
      const cut0 = (await r.metrics()).sum('initlimiter_cut_total');
      await r.pass(r.limits.sendTimeoutMs + chunkBudgetMs(r.limits) + 100);
      // Past the cap a write is either cut or, if the deadline never reached the socket, still blocked.
      const m = await r.until('a cut, or a write still blocked past the cap', (x) => x.sum('initlimiter_cut_total') > cut0 || x.value('initlimiter_writes_pending') >= 1);
      const cut = m.sum('initlimiter_cut_total') > cut0;
      a.readFull();
      const closed = cut ? await a.waitFor(() => a.isClosed) : false;
      return verdict(
        cut && closed && !a.has('put') && m.value('initlimiter_slots_in_use') === 0,
        `stalled FDv1 client past the cap: ${cut ? 'cut' : 'not cut (a write still blocked)'}, client socket ${closed ? 'closed before the basis completed' : 'open'}, slots in use ${m.value('initlimiter_slots_in_use')}`,
      );
    },
  },
  {
    id: 'disconnect-frees-slot',
    invariants: ['Inv_ReleasedOnce'],
    property: 'a client that disconnects mid-send frees its slot exactly once (a disconnect, not a cut)',
    catches: [],
    control: 'optional',
    server: { limiter: { maxConcurrent: 1, ...LIMITS }, data: stallData(), heartbeatMs: 0 },
    unmet: all(needsSlots(1), needsStallPayload),
    async run(r) {
      const a = await r.stream({ path: '/all', read: 'stalled' });
      const m0 = await blocked(r);
      await a.readBytes(64 * 1024);
      a.disconnect();
      // The slot's return is waited for; why it returned is judged (a close taken for a cut released it too).
      const m = await r.until('the slot released', (x) => x.value('initlimiter_slots_in_use') === 0);
      const asDisconnect = counter(m, 'release_disconnect_total') - counter(m0, 'release_disconnect_total');
      const doubles = counter(m, 'double_release_total');
      const cuts = counter(m, 'cut_total') - counter(m0, 'cut_total');
      const reasons = ['sent', 'cut', 'returned', 'abandoned'].map((k) => [k, counter(m, `release_${k}_total`) - counter(m0, `release_${k}_total`)] as const).filter(([, n]) => n > 0);
      return verdict(
        asDisconnect === 1 && reasons.length === 0 && doubles === 0 && cuts === 0,
        `disconnect mid-send: slot released ${asDisconnect} times as a disconnect${reasons.map(([k, n]) => `, ${n} as ${k}`).join('')}; ${doubles} double releases, ${cuts} cuts`,
      );
    },
  },
  {
    id: 'herd-shares-one-budget',
    invariants: ['Inv_SlotsBound', 'Inv_QueueBound', 'Inv_ReleasedOnce'],
    property: 'one budget for every surface: a herd of polls gets maxConcurrent slots, maxQueued waits, the rest 503; a stream meanwhile is shed; every slot returns',
    catches: [],
    control: 'required',
    server: { limiter: { maxConcurrent: 4, maxQueued: 2, ...LIMITS }, data: SMALL, heartbeatMs: 0 },
    unmet: (r) => (!r.limits.enabled ? 'the limiter is disabled' : null),
    async run(r) {
      const c = r.ctl();
      const { maxConcurrent: slots, maxQueued: queue } = r.limits;
      const n = slots + queue + 6;
      await c.hold('poll.admitted', n);
      r.onEnd(() => c.release('poll.admitted'));
      const admitted0 = (await c.point('poll.admitted')).arrivals;
      const replies = Array.from({ length: n }, () => r.poll('/sdk/flags'));
      await c.wait('poll.admitted', { arrivals: admitted0 + slots });
      await r.until('the queue full', (m) => m.value('initlimiter_queued') === queue && counter(m, 'shed_total', 'flags') >= n - slots - queue);
      const s = await r.stream({ path: '/all', client: 'herd-stream' });
      await s.waitFor(() => s.isClosed || s.bodyBytes > 0, 10_000, r.drained('herd-stream'));
      await c.release('poll.admitted');
      const got = await Promise.all(replies);
      const ok = got.filter((g) => g.kind === 'response' && g.status === 200).length;
      const shed = got.filter((g) => g.kind === 'response' && g.status === 503 && Number(g.headers['retry-after']) >= 1).length;
      const m = await r.until('every slot back', (x) => x.value('initlimiter_slots_in_use') === 0);
      return verdict(
        ok === slots + queue && shed === n - slots - queue && s.isClosed && s.bodyBytes === 0 && counter(m, 'double_release_total') === 0,
        `herd of ${n} polls on ${slots} slots + ${queue} queue: ${ok} served, ${shed} shed with Retry-After; a stream meanwhile ${s.isClosed && s.bodyBytes === 0 ? 'shed' : 'served'}`,
      );
    },
  },
];

/** Runs `check` against the server at `url`; not-run when its assumptions do not hold there. */
export async function runCheck(check: Check, url: string, control: import('./control-client.js').ControlClient | null, o: CheckRunOptions = {}): Promise<CheckOutcome> {
  if (check.control === 'required' && !control) return { status: 'not-run', observed: 'needs the control endpoint (test seams)' };
  const run = await CheckRun.open(url, control, o);
  const unmet = check.unmet?.(run) ?? null;
  if (unmet) return { status: 'not-run', observed: unmet };
  try {
    return await check.run(run);
  } finally {
    await run.close();
  }
}
