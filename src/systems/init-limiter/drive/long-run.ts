/**
 * A seeded long run: a herd of hundreds of clients at once on one server — FDv2 streams at no
 * basis, the current one or an old one, FDv1 streams, full, up-to-date and eval polls, some
 * disconnecting mid-delivery — with publishes between arrivals, on the real clock. What the bounded
 * checks cannot reach (hundreds of concurrent callers on one budget), read from outside only:
 * /metrics sampled all along (slots in use ≤ MaxConcurrent, queued ≤ MaxQueued), and at the end
 * every slot back and released once, every stream either shed and closed or holding a complete
 * basis with no version lost up to the store's last, every poll a 200 or a 503 with Retry-After, no
 * up-to-date reply ever shed. A failure prints its seed and the one command that replays it.
 *
 *   npx tsx src/systems/init-limiter/drive/long-run.ts [--seed N] [--clients N]
 */
import { pathToFileURL } from 'node:url';
import { mulberry32, type Rng } from '../../../core/random.js';
import { startInitLimiterServer, type InitLimiterPatch, type InitLimiterServerOptions } from '../server/index.js';
import { ControlClient } from './control-client.js';
import { readMetrics } from './metrics-reader.js';
import { KeptAliveConnection, type PollReply } from './poll-client.js';
import { stallPayloadBytes } from './kernel-buffers.js';
import { missingVersions } from './sse.js';
import { modelPhaseProjection, PhaseCollector } from './phase-coverage.js';
import { smallRequest } from './http-wire.js';
import type { ClientsReadout } from '../server/client-views.js';
import { StreamClient } from './stream-client.js';

export interface LongRunOptions {
  readonly seed: number;
  /** Clients in the herd (default 200). */
  readonly clients?: number;
  /** A mutant's parts on the server (the run never reads which). */
  readonly patch?: InitLimiterPatch;
}

export interface LongRunResult {
  readonly seed: number;
  readonly clients: number;
  /** Broken properties, one line each (empty: every one held). */
  readonly failures: readonly string[];
  /** What happened, for humans: served, shed, up to date, disconnected, samples, peaks. */
  readonly summary: string;
  readonly replay: string;
}

/**
 * Real deadlines, short: 64 KB pieces at the 64 KB/s floor plus 0.5 s slack (1.5 s a piece), a 3 s
 * cap. A basis beyond what a stalled connection's kernel buffers absorb, so a client that does not
 * read really holds its slot until the deadline cuts it; the others contend for what is left.
 */
function serverOptions(): InitLimiterServerOptions {
  return {
    limiter: { maxConcurrent: 4, maxQueued: 8, floorBytesPerSec: 65_536, chunkBytes: 65_536, slackMs: 500, sendTimeoutMs: 3_000 },
    data: { flags: 64, valueBytes: Math.ceil(stallPayloadBytes() / 64) },
    heartbeatMs: 0,
    testSeams: { clock: 'real' },
  };
}

/**
 * How long an arrival waits for its reply or stream head: a queued caller legitimately waits for
 * the slots ahead of it (stalled clients hold theirs up to the 3 s cap), and the last arrivals of a
 * herd wait behind all of it (10 s was too short: seeds 6 and 7 timed out their last client).
 */
const ARRIVAL_TIMEOUT_MS = 60_000;

type Kind = 'stream-none' | 'stream-current' | 'stream-old' | 'stream-v1' | 'stream-stalled' | 'stream-gone' | 'poll-full' | 'poll-current' | 'eval-current' | 'flags';
/** The herd's mix, by weight: mostly clients at the current basis (a reconnect herd), a few that stall. */
const MIX: ReadonlyArray<readonly [Kind, number]> = [
  ['stream-current', 35],
  ['poll-current', 25],
  ['eval-current', 15],
  ['stream-stalled', 5],
  ['stream-gone', 5],
  ['stream-none', 5],
  ['poll-full', 5],
  ['stream-old', 2],
  ['stream-v1', 2],
  ['flags', 1],
];
const KINDS: readonly Kind[] = MIX.flatMap(([k, w]) => Array<Kind>(w).fill(k));

type Seen =
  | { readonly kind: 'stream'; readonly what: Kind; readonly s: StreamClient; readonly asked: number | null; readonly samePublish: boolean }
  | { readonly kind: 'poll'; readonly what: Kind; readonly reply: PollReply; readonly upToDate: boolean; readonly samePublish: boolean };

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;

export const longRunReplay = (o: { seed: number; clients: number }) => `npx tsx src/systems/init-limiter/drive/long-run.ts --seed ${o.seed} --clients ${o.clients}`;

export async function runLongHerd(o: LongRunOptions): Promise<LongRunResult> {
  const n = o.clients ?? 200;
  const rng = mulberry32(o.seed);
  const SERVER = serverOptions();
  const s = await startInitLimiterServer({ ...SERVER, ...(o.patch ? { patch: o.patch } : {}) });
  const control = new ControlClient(s.url);
  // A pooled metrics connection the server closed meanwhile fails once; the retry opens a new one.
  const metrics = () => readMetrics(s.url).catch(() => readMetrics(s.url));
  const failures: string[] = [];
  const streams: StreamClient[] = [];
  let samples = 0;
  let sampleErrors = 0;
  let peakSlots = 0;
  let peakQueued = 0;
  let sampling = true;
  // The server's own per-client read-out, sampled beside /metrics: the model's per-client phases the herd went through.
  const phases = new PhaseCollector();
  try {
    const limits = { slots: SERVER.limiter!.maxConcurrent, queue: SERVER.limiter!.maxQueued ?? 0 };
    const sampler = (async () => {
      while (sampling) {
        // A metrics connection the pool reused after the server closed it fails once: the next sample retries.
        const m = await readMetrics(s.url).catch(() => null);
        if (!m) {
          sampleErrors += 1;
          continue;
        }
        samples += 1;
        const inUse = m.value('initlimiter_slots_in_use');
        const queued = m.value('initlimiter_queued');
        peakSlots = Math.max(peakSlots, inUse);
        peakQueued = Math.max(peakQueued, queued);
        if (inUse > limits.slots) failures.push(`sample ${samples}: ${inUse} slots in use, MaxConcurrent ${limits.slots}`);
        if (queued > limits.queue) failures.push(`sample ${samples}: ${queued} queued, MaxQueued ${limits.queue}`);
        const clients = await smallRequest(s.url, 'GET', '/_control/clients').catch(() => null);
        if (clients?.status === 200) phases.add(JSON.parse(clients.text) as ClientsReadout);
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const arrivals: Array<Promise<Seen | { readonly kind: 'error'; readonly what: Kind; readonly message: string }>> = [];
    let version = (await readMetrics(s.url)).value('initlimiter_store_version');
    // Publishes so far: a client's basis was current at its decision only if none came between its launch and its reply.
    let epoch = 0;
    for (let i = 0; i < n; i++) {
      // Publishes between arrivals, not awaited by the herd (the store moves while it connects).
      if (rng() < 0.03) {
        epoch += 1;
        version = await control.publish();
      }
      const what = pick(rng, KINDS);
      const v = version;
      const launched = epoch;
      const client = `h${i}`;
      const arrival = (async (): Promise<Seen> => {
        if (what.startsWith('stream')) {
          const asked = what === 'stream-current' ? v : what === 'stream-old' ? Math.max(1, v - 1) : null;
          const c = await StreamClient.open(s.url, {
            headTimeoutMs: ARRIVAL_TIMEOUT_MS,
            path: what === 'stream-v1' || what === 'stream-stalled' ? '/all' : '/sdk/stream',
            basis: asked,
            client,
            read: what === 'stream-stalled' ? 'stalled' : 'full',
          });
          streams.push(c);
          if (what === 'stream-gone') c.disconnect();
          if (what === 'stream-current') await c.waitFor(() => c.events.length > 0 || c.isClosed);
          return { kind: 'stream', what, s: c, asked, samePublish: epoch === launched };
        }
        const path = what === 'poll-full' ? '/sdk/poll' : what === 'poll-current' ? `/sdk/poll?basis=${v}` : what === 'eval-current' ? `/sdk/poll/eval?basis=${v}` : '/sdk/flags';
        const conn = await KeptAliveConnection.open(s.url);
        const reply = await conn.request(path, { 'x-client-id': client }, ARRIVAL_TIMEOUT_MS).finally(() => conn.close());
        return { kind: 'poll', what, reply, upToDate: what === 'poll-current' || what === 'eval-current', samePublish: epoch === launched };
      })();
      // Handled at once (a rejection waiting for the herd's end would be an unhandled one meanwhile); judged below.
      arrivals.push(arrival.catch((err: unknown) => ({ kind: 'error' as const, what, message: (err as Error).message })));
    }
    const seen = await Promise.all(arrivals);
    const last = await control.publish();
    // Quiescence: every delivery over (the herd's streams read at full speed; polls answered).
    const end = Date.now() + 60_000;
    let lastPending = -1;
    let stillSince = Date.now();
    for (;;) {
      const m = await metrics();
      const pendingStreams = seen.filter(
        (x) =>
          x.kind === 'stream' &&
          !x.s.isClosed &&
          x.what !== 'stream-gone' &&
          x.what !== 'stream-stalled' &&
          !(x.s.view().basisComplete && (x.s.view().intent === 'none' || missingVersions(x.s.view(), last).length === 0)),
      );
      const idle = m.value('initlimiter_slots_in_use') === 0 && m.value('initlimiter_queued') === 0;
      if (idle && pendingStreams.length === 0) break;
      // Nothing held, nothing queued, and no stream moved for 3 s: what is still pending never will be (judged below).
      if (pendingStreams.length !== lastPending) {
        lastPending = pendingStreams.length;
        stillSince = Date.now();
      }
      if (idle && Date.now() - stillSince > 3_000) break;
      if (Date.now() > end) {
        failures.push(
          `not quiescent after 60 s: ${m.value('initlimiter_slots_in_use')} slots in use, ${m.value('initlimiter_queued')} queued, ${pendingStreams.length} streams without a complete basis and every delta`,
        );
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    sampling = false;
    await sampler;
    const m = await metrics();
    if (m.sum('initlimiter_double_release_total') !== 0) failures.push(`${m.sum('initlimiter_double_release_total')} double releases`);
    if (m.sum('initlimiter_acquired_total') !== m.sum('initlimiter_released_total')) failures.push(`acquired ${m.sum('initlimiter_acquired_total')} ≠ released ${m.sum('initlimiter_released_total')}`);
    let served = 0;
    let shed = 0;
    let upToDate = 0;
    let stalledCut = 0;
    let stalledDelivered = 0;
    const cutMidBasis: Kind[] = [];
    // The stalled clients read what their kernels hold, all at once (judged below).
    // A cut's close reaches a client behind whatever the server's kernel still sends (a FIN after the
    // queued bytes, if a server closes rather than resets): a client judged "never cut" only once no
    // byte has come for 5 s, not at a fixed time (under load a closed connection's queue drained for
    // more than 10 s).
    await Promise.all(seen.map((x) => (x.kind === 'stream' && x.what === 'stream-stalled' ? x.s.readUntilSettled(() => x.s.has('put') || x.s.isClosed, 5_000, 60_000) : null)));
    for (const [i, x] of seen.entries()) {
      if (x.kind === 'error') {
        failures.push(`client h${i} (${x.what}): ${x.message}`);
        continue;
      }
      if (x.kind === 'poll') {
        const r = x.reply;
        if (r.kind === 'closed' && r.bytes > 0) {
          // Cut mid-reply, as a reading stream can be (below): counted and shown, not judged.
          cutMidBasis.push(x.what);
          continue;
        }
        if (r.kind !== 'response') failures.push(`client h${i} (${x.what}): ${r.kind === 'closed' ? 'closed before any byte of a reply' : r.kind}`);
        else if (r.status === 503) {
          shed += 1;
          if (x.upToDate && x.samePublish) failures.push(`client h${i} (${x.what}): an up-to-date poll shed`);
          if (!(Number(r.headers['retry-after']) >= 1)) failures.push(`client h${i}: a 503 without Retry-After`);
        } else if (r.status === 200) served += 1;
        else failures.push(`client h${i} (${x.what}): status ${r.status}`);
        continue;
      }
      if (x.what === 'stream-gone') continue;
      if (x.what === 'stream-stalled') {
        // A stalled client has read (almost) nothing; it reads what its kernel holds now. A cut's
        // close reaches it only behind those bytes, and the whole basis may be in them (the server
        // finished: nothing to cut). Closed with no byte = shed; closed before a complete basis =
        // cut; a complete basis = delivered; neither = left open with its basis unfinished, never cut.
        if (x.s.has('put')) stalledDelivered += 1;
        else if (x.s.isClosed && x.s.bodyBytes === 0) shed += 1;
        else if (x.s.isClosed) stalledCut += 1;
        else failures.push(`client h${i}: a stalled client left open with its basis unfinished (${x.s.bodyBytes} bytes), never cut`);
        continue;
      }
      const view = x.s.view();
      if (x.s.isClosed && x.s.bodyBytes > 0 && !view.basisComplete && !x.s.has('put')) {
        // Closed mid-basis by the server: a cut. The herd's readers share one event loop with the
        // server and hundreds of parsers, so a full-speed reader starved past a piece's budget
        // cannot be told from a slow one: counted and shown, not judged.
        cutMidBasis.push(x.what);
        continue;
      }
      if (x.s.isClosed && x.s.events.length === 0) {
        shed += 1;
        if (x.what === 'stream-current' && x.samePublish) failures.push(`client h${i}: a stream at the current basis shed`);
        continue;
      }
      if (view.problems.length > 0) failures.push(`client h${i} (${x.what}): ${view.problems[0]}`);
      if (!x.s.isClosed && !view.basisComplete) failures.push(`client h${i} (${x.what}): left open without a complete basis (${x.s.events.length} events)`);
      if (view.intent === 'none') upToDate += 1;
      else served += 1;
      if (x.s.isClosed) failures.push(`client h${i} (${x.what}): closed after ${x.s.events.length} events`);
      else if (x.what !== 'stream-v1' && missingVersions(view, last).length > 0) failures.push(`client h${i} (${x.what}): versions never received [${missingVersions(view, last).join(', ')}]`);
    }
    // Every cut the server counts is one a client saw (a stalled client's, or a reader's shown above).
    if (m.sum('initlimiter_cut_total') !== stalledCut + cutMidBasis.length)
      failures.push(`the server counts ${m.sum('initlimiter_cut_total')} cuts, the clients saw ${stalledCut + cutMidBasis.length}`);
    const summary = `${n} clients (seed ${o.seed}): ${served} served, ${upToDate} up to date without a slot, ${shed} shed, ${stalledCut} stalled clients cut (${m.sum('initlimiter_cut_total')} cuts), ${stalledDelivered} whose basis the kernel took whole, ${cutMidBasis.length} reading clients cut mid-delivery${cutMidBasis.length ? ` (${[...new Set(cutMidBasis)].join(', ')})` : ''}; ${samples} samples of /metrics${sampleErrors ? ` (${sampleErrors} failed and retried)` : ''}, peak ${peakSlots} slots of ${limits.slots}, ${peakQueued} queued of ${limits.queue}; store version ${last}; ${phases.share(modelPhaseProjection()).line}`;
    return { seed: o.seed, clients: n, failures: [...new Set(failures)], summary, replay: longRunReplay({ seed: o.seed, clients: n }) };
  } finally {
    sampling = false;
    for (const c of streams) c.disconnect();
    await s.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = (name: string, fallback: number): number => {
    const i = process.argv.indexOf(name);
    const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
    if (!Number.isInteger(v) || v < 1) {
      process.stdout.write(`${name} takes a positive integer\n`);
      process.exit(3);
    }
    return v;
  };
  runLongHerd({ seed: arg('--seed', 1), clients: arg('--clients', 200) }).then(
    (r) => {
      process.stdout.write(`${r.summary}\n${r.failures.map((f) => `broken: ${f}`).join('\n')}${r.failures.length ? `\nreplay: ${r.replay}\n` : ''}`);
      process.exit(r.failures.length ? 1 : 0);
    },
    (err: unknown) => {
      process.stdout.write(`could not run: ${(err as Error).message}\n`);
      process.exit(2);
    },
  );
}
