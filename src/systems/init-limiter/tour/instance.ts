/**
 * One instance of the init-limiter tour: a fresh reference server (test seams on: hold points, the
 * manual clock, /_control) and the tour's clients on real sockets — one StreamClient per stream of
 * the bounds, one kept-alive connection per poll. An attempt is the spec's action done over real
 * HTTP (docs/init-limiter-impl.md "The tour" has the table); the state is read back from
 * GET /_control/clients (the server's own per-client record, the limiter's holders and waiters) and
 * from the clients' sockets (whether a client reads, whether its connection closed).
 *
 * Every wait is on a real condition (a hold point reached, a phase the server reports, a reply, a
 * socket closed), bounded by SETTLE_MS of real time; time on the server moves only by /_control/advance.
 */
import {
  REST,
  clientsOf,
  isFdv1,
  isStream,
  normalisedClients,
  normalisedObservations,
  type ClientId,
  type ClientRecord,
  type Deadline,
  type InitLimiterBounds,
  type InitLimiterModelState,
  type Observation,
  type Poller,
  type Stream,
} from '../model-state.js';
import { ControlClient } from '../drive/control-client.js';
import { smallRequest } from '../drive/http-wire.js';
import { stallPayloadBytes } from '../drive/kernel-buffers.js';
import { KeptAliveConnection, type PollReply } from '../drive/poll-client.js';
import { StreamClient } from '../drive/stream-client.js';
import { readMetrics } from '../drive/metrics-reader.js';
import type { ClientReadout, ClientsReadout } from '../server/client-views.js';
import { startInitLimiterServer, type InitLimiterPatch, type InitLimiterServer } from '../server/index.js';
import type { InitLimiterAttempt, InitLimiterDecision } from './model.js';
import type { Outcome, Readback } from '../../../seam/tour/system.js';
import { initLimiterEventLabel } from '../../../../models/init-limiter/index.js';
import { FeedJudge, replyFinding, StoreWire, type JudgedReply } from './received.js';
import { countersLine, ReceivedLog } from './observed.js';

/** The checks on what the clients received and what the limiter counts, by the names their findings carry. */
export const RECEIVED_CHECKS = ['ClientDataSet', 'ShedRetryAfter', 'LimiterCounters'] as const;

/** A check on what the clients received or the limiter counts, beyond the model's state: its name and what broke it. */
export interface ReceivedFinding {
  /** `ClientDataSet` (a feed or a reply that is not the store's), `ShedRetryAfter`, `LimiterCounters`. */
  readonly check: string;
  readonly message: string;
}

/** What a read-back observed beside the model's state: the server's read-out and the findings on what the clients received. */
export interface InitLimiterObservation {
  readonly readout: ClientsReadout;
  readonly findings: readonly ReceivedFinding[];
  /** What the clients received since the last read-back and the limiter's /metrics samples, one line (observed.ts). */
  readonly received: string;
}

const FLOOR = { floorBytesPerSec: 65_536, slackMs: 2_000, chunkBytes: 1 << 20 } as const;
/** One Tick is one piece's budget (chunk / floor + slack): a stalled write is cut by the floor in the Tick it blocks. */
export const TICK_MS = (FLOOR.chunkBytes * 1000) / FLOOR.floorBytesPerSec + FLOOR.slackMs;
/**
 * The tour server's deadline limits. The cap is two Ticks: past one piece's budget, so the floor
 * decides every one-chunk delivery, and near enough that a deadline a delivery leaves armed on a
 * busy live stream (its heartbeat each Tick) reaches the cap within the bound.
 */
export const TOUR_LIMITS = { ...FLOOR, sendTimeoutMs: 2 * TICK_MS } as const;

/** How long a wait on the real server may take before it is a fault (real ms; a loaded machine needs seconds, never this). */
const SETTLE_MS = 20_000;

/** A data set beyond what a stalled client's kernel buffers absorb, so a stalled send really blocks. */
export function tourData(): { flags: number; valueBytes: number } {
  return { flags: 64, valueBytes: Math.ceil(stallPayloadBytes(2 << 20) / 64) };
}

interface PollSide {
  conn: KeptAliveConnection | null;
  inflight: Promise<PollReply> | null;
  reply: PollReply | null;
  /** The store version when the request went out, and its basis (an up-to-date request answered 503 is seen). */
  askedAt: { version: number; basis: number } | null;
}

export class TourFault extends Error {
  override readonly name = 'TourFault';
}

const tick = () => new Promise<void>((r) => setTimeout(r, 2));

export class InitLimiterInstance {
  private server: InitLimiterServer | null = null;
  private control: ControlClient | null = null;
  private readonly streams = new Map<Stream, StreamClient | null>();
  private readonly polls = new Map<Poller, PollSide>();
  /** The clients that stopped reading (their socket's own state, not the server's). */
  private readonly stalled = new Set<ClientId>();
  private readonly observed = new Set<Observation>();
  private readonly cutsSeen = new Map<string, number>();
  /** What ran, for a fault's message. */
  readonly log: string[] = [];
  /** Every stream connection's feed, judged as it arrives (old connections' too). */
  private readonly feeds = new Map<StreamClient, FeedJudge>();
  /** Poll replies received and not judged yet (judged at the next read, against the store's version then). */
  private readonly replies: JudgedReply[] = [];
  /** The first finding on what the clients received (later ones are moot). */
  private finding: ReceivedFinding | null = null;
  /** Sheds the clients saw: a 503, a stream closed by the server before any event in the step that decided it. */
  private shedSeen = 0;
  private wire: StoreWire | null = null;
  private readonly receivedLog = new ReceivedLog();
  /** The limiter's /metrics samples at the last read-back. */
  private counters = '';

  constructor(
    private readonly bounds: InitLimiterBounds,
    private readonly patch?: InitLimiterPatch,
  ) {}

  async open(): Promise<void> {
    this.server = await startInitLimiterServer({
      // LimiterOn FALSE: no limiter configured, the default deployment (the base replay).
      limiter: this.bounds.limiterOn ? { maxConcurrent: this.bounds.maxConcurrent, maxQueued: this.bounds.maxQueued, ...TOUR_LIMITS } : null,
      data: tourData(),
      heartbeatMs: TICK_MS,
      testSeams: true,
      ...(this.patch ? { patch: this.patch } : {}),
    });
    this.control = new ControlClient(this.server.url);
    this.wire = StoreWire.of(tourData(), this.bounds.maxVersion);
    for (const s of this.bounds.streams) this.streams.set(s, null);
    for (const p of this.bounds.polls) this.polls.set(p, { conn: null, inflight: null, reply: null, askedAt: null });
  }

  async close(): Promise<void> {
    for (const s of this.streams.values()) s?.disconnect();
    for (const p of this.polls.values()) p.conn?.close();
    await this.server?.stop();
  }

  private get ctl(): ControlClient {
    if (!this.control) throw new TourFault('the instance is not open');
    return this.control;
  }

  private get url(): string {
    return this.server!.url;
  }

  async readout(): Promise<ClientsReadout> {
    const r = await smallRequest(this.url, 'GET', '/_control/clients');
    if (r.status !== 200) throw new TourFault(`/_control/clients: ${r.status} ${r.text.slice(0, 200)}`);
    return JSON.parse(r.text) as ClientsReadout;
  }

  private view(r: ClientsReadout, c: ClientId): ClientReadout | undefined {
    return r.clients.find((x) => x.client === c);
  }

  /** Reads back until `pred` holds; a fault naming `what` after SETTLE_MS. */
  private async until(what: string, pred: (r: ClientsReadout) => boolean | Promise<boolean>): Promise<ClientsReadout> {
    const end = Date.now() + SETTLE_MS;
    for (;;) {
      const r = await this.readout();
      if (await pred(r)) return r;
      if (Date.now() > end) throw new TourFault(`the server never showed ${what} in ${SETTLE_MS} ms (after ${this.log.join(' · ')})`);
      await tick();
    }
  }

  private async parked(point: string, c: ClientId): Promise<boolean> {
    return (await this.ctl.point(point, c)).parked > 0;
  }

  private async clientClosed(c: ClientId): Promise<void> {
    const s = isStream(c) ? this.streams.get(c) : null;
    if (s && !s.isClosed) {
      // A stalled client learns of the close when it reads again.
      s.readFull();
      const ok = await s.waitFor(() => s.isClosed, SETTLE_MS);
      if (!ok && !s.isClosed) throw new TourFault(`${c}: the server closed the stream, the client's socket stayed open`);
    }
    const p = !isStream(c) ? this.polls.get(c as Poller) : undefined;
    if (p?.conn && !p.conn.isClosed) {
      p.conn.socket.resume();
      await this.settleReply(c as Poller);
      const end = Date.now() + SETTLE_MS;
      while (!p.conn.isClosed && Date.now() < end) await tick();
    }
    this.stalled.delete(c);
  }

  private async settleReply(p: Poller): Promise<void> {
    const side = this.polls.get(p)!;
    if (!side.inflight) return;
    side.reply = await side.inflight;
    side.inflight = null;
    if (side.askedAt) this.replies.push({ client: p, basis: side.askedAt.basis, askedAt: side.askedAt.version, reply: side.reply });
    if (side.reply.kind === 'response' && side.reply.status === 503) this.shedSeen += 1;
  }

  async perform(a: InitLimiterAttempt): Promise<Outcome<InitLimiterDecision>> {
    this.log.push(initLimiterEventLabel(a));
    let out: Outcome<InitLimiterDecision>;
    try {
      out = await this.act(a);
    } catch (err) {
      // The server never settled where any correct or buggy step ends: the real code failed, a finding (never predicted).
      if (!(err instanceof TourFault)) throw err;
      return { decision: { kind: 'error', message: err.message }, note: err.message };
    }
    await this.collectObservations();
    return out;
  }

  private refused(note: string): Outcome<InitLimiterDecision> {
    return { decision: { kind: 'refused' }, note };
  }

  private done(a: InitLimiterAttempt, note: string): Outcome<InitLimiterDecision> {
    return { decision: { kind: 'transition', label: initLimiterEventLabel(a) }, note };
  }

  private async act(a: InitLimiterAttempt): Promise<Outcome<InitLimiterDecision>> {
    switch (a.type) {
      case 'Connect':
        return this.connect(a.c, a.b, a);
      case 'Decide':
        return this.decide(a.c, a);
      case 'Poll':
        return this.poll(a.p, a.b, a);
      case 'Handoff':
        return this.handoff(a.c, a);
      case 'Admit':
        return this.admit(a.c, a);
      case 'Stall':
        return this.stall(a.c, a);
      case 'Disconnect':
        return this.disconnect(a.c, a);
      case 'CaptureDone':
        return (await this.parked('basis.closeBatch', a.c))
          ? this.refused('a producer waits at basis.closeBatch: only a Tick lets it go')
          : this.refused('no producer between the close of its batch and its release');
      case 'IdleTimeout':
        return this.refused("an idle timeout is a timer on the server's clock: only a Tick moves it");
      case 'Publish':
        return this.publish(a);
      case 'Tick':
        return this.tick(a);
    }
  }

  /** Decision 1 of the model: a client asks with no data (0) or at the store's version. */
  private async basisKnown(b: number): Promise<number | null> {
    const v = (await this.readout()).version;
    return b === 0 || b === v ? v : null;
  }

  private async connect(c: Stream, b: number, a: InitLimiterAttempt): Promise<Outcome<InitLimiterDecision>> {
    const s = this.streams.get(c);
    if (s && !s.isClosed) return this.refused(`${c} has its stream open`);
    if ((await this.basisKnown(b)) === null) return this.refused(`the client connects with no data or at the store's version, not ${b}`);
    const v1 = isFdv1(this.bounds, c);
    if (v1 && b !== 0) return this.refused(`${c} is an FDv1 client (/all): it asks with no basis, never ${b}`);
    await this.ctl.hold('peek.return', 1, c);
    // FDv2: basis=0 for no data (a peek key of its own, never up to date); FDv1: /all, no basis (the model's 0).
    const path = v1 ? '/all' : `/sdk/stream?basis=${b}`;
    const client = await StreamClient.open(this.url, v1 ? { path: '/all', basis: null, client: c, read: 'full' } : { basis: b, client: c, read: 'full' });
    this.streams.set(c, client);
    this.feeds.set(client, new FeedJudge(c, this.wire!, b, v1 ? 'put' : 'v2'));
    this.stalled.delete(c);
    await this.ctl.wait('peek.return', { parked: 1 }, SETTLE_MS, c);
    return this.done(a, `GET ${path}: parked at peek.return`);
  }

  private async decide(c: Stream, a: InitLimiterAttempt): Promise<Outcome<InitLimiterDecision>> {
    if (!(await this.parked('peek.return', c))) return this.refused(`no peek of ${c} waits at peek.return`);
    await this.ctl.hold('serialize.return', 1, c);
    await this.ctl.release('peek.return', 1, c);
    const r = await this.until(`${c} decided`, async (x) => {
      const v = this.view(x, c);
      if (!v) return false;
      if (v.phase === 'serializing') return this.parked('serialize.return', c);
      return v.phase === 'live' || v.phase === 'closed' || v.phase === 'stranded' || v.phase === 'queued';
    });
    const phase = this.view(r, c)!.phase;
    if (phase !== 'serializing') await this.ctl.release('serialize.return', undefined, c);
    if (phase === 'closed') {
      await this.clientClosed(c);
      // What the client saw of it: closed by the server before any event (no cut: time did not move).
      const s = this.streams.get(c)!;
      if (s.events.length === 0 && s.closeInfo?.by === 'server') this.shedSeen += 1;
    }
    if (phase === 'queued') await this.ctl.hold('queue.admit', 1, c);
    return this.done(a, phase === 'serializing' ? 'admitted: parked at serialize.return' : phase === 'live' ? 'up to date: live' : phase === 'closed' ? 'shed: closed' : phase);
  }

  private async handoff(c: ClientId, a: InitLimiterAttempt): Promise<Outcome<InitLimiterDecision>> {
    if (!isStream(c) || !(await this.parked('serialize.return', c))) return this.refused(`no serialization of ${c} waits at serialize.return`);
    await this.ctl.hold('send.begin', 1, c);
    await this.ctl.release('serialize.return', 1, c);
    await this.until(`${c} at send.begin`, async (x) => this.view(x, c)?.phase === 'closed' || (await this.parked('send.begin', c)));
    return this.done(a, 'handed over: the deadline armed, parked at send.begin');
  }

  private async admit(c: ClientId, a: InitLimiterAttempt): Promise<Outcome<InitLimiterDecision>> {
    if (!(await this.parked('queue.admit', c))) return this.refused(`no waiter ${c} woken at queue.admit`);
    // A woken waiter that finds every slot taken waits again: let it go only to a free slot.
    const r = await this.readout();
    if (r.slotsInUse >= this.bounds.maxConcurrent) return this.refused(`${c} woken at queue.admit, every slot taken`);
    const next = isStream(c) ? 'serialize.return' : 'poll.admitted';
    // A poll's poll.admitted is still armed from its request (it queued before reaching it).
    if (isStream(c)) await this.ctl.hold(next, 1, c);
    await this.ctl.release('queue.admit', 1, c);
    await this.until(`${c} admitted`, async (x) => this.view(x, c)?.phase !== 'queued' && (this.view(x, c)?.phase === 'closed' || (await this.parked(next, c))));
    return this.done(a, `admitted: parked at ${next}`);
  }

  private async poll(p: Poller, b: number, a: InitLimiterAttempt): Promise<Outcome<InitLimiterDecision>> {
    const side = this.polls.get(p)!;
    if (side.inflight) return this.refused(`a request of ${p} is in flight`);
    const version = await this.basisKnown(b);
    if (version === null) return this.refused(`the client polls with no data or at the store's version, not ${b}`);
    if (!side.conn || side.conn.isClosed) {
      side.conn = await KeptAliveConnection.open(this.url);
      this.stalled.delete(p);
    }
    await this.ctl.hold('poll.admitted', 1, p);
    side.askedAt = { version, basis: b };
    side.reply = null;
    side.inflight = side.conn.request(`/sdk/poll?basis=${b}`, { 'x-client-id': p }, SETTLE_MS);
    let replied = false;
    void side.inflight.then(() => (replied = true));
    const r = await this.until(`${p}'s request answered, admitted or queued`, async (x) => replied || this.view(x, p)?.phase === 'queued' || (await this.parked('poll.admitted', p)));
    if (!replied && this.view(r, p)?.phase === 'queued') {
      await this.ctl.hold('queue.admit', 1, p);
      return this.done(a, 'queued');
    }
    if (replied) {
      await this.settleReply(p);
      await this.ctl.release('poll.admitted', undefined, p);
      const rep = side.reply!;
      return this.done(a, rep.kind === 'response' ? `${rep.status}` : rep.kind);
    }
    return this.done(a, 'admitted: parked at poll.admitted');
  }

  private async stall(c: ClientId, a: InitLimiterAttempt): Promise<Outcome<InitLimiterDecision>> {
    const v = this.view(await this.readout(), c);
    if (v?.phase !== 'sending' || this.stalled.has(c)) return this.refused(`${c} is not reading a delivery`);
    if (isStream(c)) {
      this.streams.get(c)!.stall();
      this.receivedLog.stall(this.streams.get(c)!);
    } else this.polls.get(c as Poller)!.conn!.socket.pause();
    this.stalled.add(c);
    return this.done(a, 'the client stops reading');
  }

  private async disconnect(c: ClientId, a: InitLimiterAttempt): Promise<Outcome<InitLimiterDecision>> {
    if (isStream(c)) {
      const s = this.streams.get(c);
      if (!s || s.isClosed) return this.refused(`${c} has no stream open`);
      s.disconnect();
      this.stalled.delete(c);
      // A producer parked at a hold point goes on when its connection closes: wait until its replay returned.
      await this.until(`${c}'s close`, (x) => {
        const v = this.view(x, c);
        return !v || (v.phase === 'closed' && v.replayDone);
      });
      await this.wokenWaiters();
      return this.done(a, 'closed by the client');
    }
    const side = this.polls.get(c as Poller)!;
    if (!side.inflight || !side.conn) return this.refused(`no request of ${c} in flight (an idle kept-alive connection is kept)`);
    side.conn.close();
    this.stalled.delete(c);
    await this.settleReply(c as Poller);
    // The handler marks its poll idle after it gave its slot back (or, with a bug, did not).
    await this.until(`${c}'s handler returned`, (x) => {
      const v = this.view(x, c);
      return !v || (v.phase === 'idle' && !v.open);
    });
    await this.wokenWaiters();
    return this.done(a, 'closed by the client mid-request');
  }

  private async publish(a: InitLimiterAttempt): Promise<Outcome<InitLimiterDecision>> {
    const v = (await this.readout()).version;
    if (v >= this.bounds.maxVersion) return this.refused(`the store is at the bound's last version ${v}`);
    return this.done(a, `version ${await this.ctl.publish()}`);
  }

  private async tick(a: InitLimiterAttempt): Promise<Outcome<InitLimiterDecision>> {
    const r = await this.readout();
    const clients = clientsOf(this.bounds);
    const delivering = clients.filter((c) => this.view(r, c)?.phase === 'sending');
    const armed = clients.filter((c) => {
      const v = this.view(r, c);
      return v?.open === true && v.deadline !== null;
    });
    if (delivering.length === 0 && armed.length === 0) return this.refused('no delivery in progress and no deadline armed: time passes for nothing');
    const streams = delivering.filter(isStream);
    // I2's window: the end-of-basis flush runs before the producer reads its done signal.
    for (const s of streams) await this.ctl.hold('basis.closeBatch', 1, s);
    for (const c of delivering) await this.ctl.release(isStream(c) ? 'send.begin' : 'poll.admitted', undefined, c);
    for (const c of delivering.filter((x) => !this.stalled.has(x))) {
      if (isStream(c)) {
        await this.until(`${c}'s basis flushed`, (x) => ['live', 'closed'].includes(this.view(x, c)!.phase));
        await this.ctl.release('basis.closeBatch', undefined, c);
        await this.until(`${c}'s producer after the send`, (x) => {
          const v = this.view(x, c)!;
          return v.phase === 'closed' || v.producer === 'done' || (v.producer === 'awaiting' && v.doneLost);
        });
      } else {
        await this.settleReply(c as Poller);
        await this.until(`${c}'s handler returned`, (x) => this.view(x, c)!.phase !== 'sending');
      }
    }
    for (const c of delivering.filter((x) => this.stalled.has(x))) await this.blocked(c);
    const adv = await this.ctl.advance(TICK_MS);
    for (const s of streams) await this.ctl.release('basis.closeBatch', undefined, s);
    await this.wokenWaiters();
    return this.done(a, `${TICK_MS} ms on the server's clock: ${adv.cuts} cut`);
  }

  /** A freed slot wakes every waiter: each is where the step ends once it is parked at queue.admit (the model's Admit is the next step). */
  private async wokenWaiters(): Promise<void> {
    const r = await this.readout();
    if (r.slotsInUse >= this.bounds.maxConcurrent) return;
    const known = new Set<string>(clientsOf(this.bounds));
    for (const c of r.queue.filter((q) => known.has(q))) {
      // A waiter a freed slot never wakes is the server's failure (an error decision), not the harness's.
      await this.ctl.wait('queue.admit', { parked: 1 }, SETTLE_MS, c).catch((err: unknown) => {
        throw new TourFault(`${c} queued, a slot free, never woken: ${(err as Error).message}`);
      });
    }
  }

  /** Waits until a stalled client's delivery write is blocked on the kernel: bytes pending, none taken for a while. */
  private async blocked(c: ClientId): Promise<void> {
    let last = -1;
    let still = 0;
    await this.until(`${c}'s write blocked`, (x) => {
      const v = this.view(x, c)!;
      if (v.phase === 'closed' || !v.open) return true;
      if (v.pendingBytes > 0 && v.kernelBytes === last) still += 1;
      else still = 0;
      last = v.kernelBytes;
      return still >= 5;
    });
  }

  /** What the clients saw that a correct server never shows: cuts by the phase they cut, an up-to-date poll shed. */
  private async collectObservations(): Promise<void> {
    const r = await this.readout();
    for (const v of r.clients) {
      const seen = this.cutsSeen.get(v.client) ?? 0;
      for (const phase of v.cuts.slice(seen)) {
        if (phase === 'live') this.observed.add('cutLive');
        else if (phase === 'sending' && !this.stalled.has(v.client as ClientId)) this.observed.add('cutSteady');
        else if (phase === 'idle') this.observed.add('cutKeptAlive');
      }
      this.cutsSeen.set(v.client, v.cuts.length);
    }
    for (const side of this.polls.values()) {
      const rep = side.reply;
      if (rep && side.askedAt && side.askedAt.basis === side.askedAt.version && rep.kind === 'response' && rep.status === 503) this.observed.add('shedUpToDate');
      if (rep) side.reply = null;
    }
    // Closed by the server: the client sees it (a stalled one when it reads again).
    for (const c of clientsOf(this.bounds)) {
      const v = this.view(r, c);
      if (v && (v.phase === 'closed' || !v.open) && (isStream(c) ? this.streams.get(c) && !this.streams.get(c)!.isClosed : false)) await this.clientClosed(c);
      if (v && !isStream(c) && !v.open && this.polls.get(c as Poller)?.conn && !this.polls.get(c as Poller)!.conn!.isClosed) await this.clientClosed(c);
    }
  }

  async read(): Promise<Readback<InitLimiterModelState, InitLimiterObservation>> {
    // Every byte the server's kernel took for a reading stream has reached its client: what the feed shows is all that was written.
    const r = await this.until('every reading stream holding what the server wrote', (x) => this.streamsSettled(x));
    const cl = Object.fromEntries(clientsOf(this.bounds).map((c) => [c, this.record(r, c)])) as Record<ClientId, ClientRecord>;
    const known = new Set<string>(clientsOf(this.bounds));
    const state: InitLimiterModelState = {
      version: r.version,
      cl,
      holders: normalisedClients(r.holders.filter((h) => known.has(h)) as ClientId[]),
      inUse: r.slotsInUse,
      queue: normalisedClients(r.queue.filter((h) => known.has(h)) as ClientId[]),
      observed: normalisedObservations([...this.observed]),
    };
    // Read before judging: the judge takes the replies it judged.
    const received = this.receivedLog.line(this.feeds.keys(), this.replies);
    this.finding ??= this.judgeReceived(state) ?? (await this.judgeCounters(state));
    return { state, observation: { readout: r, findings: this.finding ? [this.finding] : [], received: `${received}|${this.counters}` } };
  }

  private streamsSettled(r: ClientsReadout): boolean {
    for (const [c, s] of this.streams) {
      if (!s || s.isClosed || this.stalled.has(c)) continue;
      const v = this.view(r, c);
      if (v?.open && (v.pendingBytes > 0 || v.kernelBytes !== s.rawBytes)) return false;
    }
    return true;
  }

  /** The feeds and replies the clients received, against the store; a live reading stream must be at the store's version. */
  private judgeReceived(state: InitLimiterModelState): ReceivedFinding | null {
    for (const [s, judge] of this.feeds) {
      judge.feed(s.events);
      if (judge.finding) return { check: 'ClientDataSet', message: judge.finding };
    }
    for (const c of this.bounds.streams) {
      const s = this.streams.get(c);
      if (!s || s.isClosed || this.stalled.has(c) || state.cl[c]?.phase !== 'live') continue;
      const m = this.feeds.get(s)!.current(state.version);
      if (m) return { check: 'ClientDataSet', message: m };
    }
    for (const rep of this.replies.splice(0)) {
      const m = replyFinding(this.wire!, rep, state.version);
      if (m) return { check: rep.reply.kind === 'response' && rep.reply.status === 503 ? 'ShedRetryAfter' : 'ClientDataSet', message: m };
    }
    return null;
  }

  /** The limiter's counters as /metrics shows them (an operator's view), against the state and what the clients saw. */
  private async judgeCounters(state: InitLimiterModelState): Promise<ReceivedFinding | null> {
    const m = await readMetrics(this.url);
    this.counters = countersLine(m.text);
    const inUse = m.value('initlimiter_slots_in_use');
    const queued = m.value('initlimiter_queued');
    const acquired = m.sum('initlimiter_acquired_total');
    const doubles = m.sum('initlimiter_double_release_total');
    const released = m.sum('initlimiter_released_total') - doubles;
    const shed = m.sum('initlimiter_shed_total');
    const wrong: string[] = [];
    if (inUse !== state.inUse) wrong.push(`slots in use ${inUse}, the limiter holds ${state.inUse}`);
    if (queued !== state.queue.length) wrong.push(`queued ${queued}, ${state.queue.length} waiting`);
    if (doubles !== 0) wrong.push(`${doubles} double releases`);
    if (acquired - released !== inUse) wrong.push(`${acquired} acquired, ${released} released, ${inUse} in use`);
    if (shed !== this.shedSeen) wrong.push(`${shed} shed counted, ${this.shedSeen} seen by the clients`);
    return wrong.length > 0 ? { check: 'LimiterCounters', message: `/metrics: ${wrong.join('; ')}` } : null;
  }

  /** A client's record as the model keeps it in the phase the server reports, every kept field read from the server (or the client's socket). */
  private record(r: ClientsReadout, c: ClientId): ClientRecord {
    const v = this.view(r, c);
    const reading = this.stalled.has(c) ? 'stalled' : 'steady';
    if (!v || v.phase === 'closed') return REST;
    if (!v.open && v.phase !== 'stranded') return REST;
    switch (v.phase) {
      case 'peeking':
        return { ...REST, phase: 'peeking', basis: v.basis ?? 0, pv: v.pv ?? 0 };
      case 'queued':
        return { ...REST, phase: 'queued', basis: v.basis ?? 0, dl: leftOver(v, r.now) };
      case 'serializing':
        return { ...REST, phase: 'serializing', basis: v.basis ?? 0, adm: v.adm ?? 0, asked: v.asked ?? 0, sent: v.sent ?? 0 };
      case 'sending':
        // A poll's reply has no producer and no done signal (the spec's Sending: captured FALSE).
        // The limiter disabled and no writer in delivery: no deadline at all (the spec's None).
        return { ...REST, phase: 'sending', reading, dl: !this.bounds.limiterOn && !v.inDelivery && v.deadline === null ? null : inDelivery(v, r.now), captured: isStream(c) && !v.doneLost };
      case 'live':
        return { ...REST, phase: 'live', dl: leftOver(v, r.now) };
      case 'stranded':
        return { ...REST, phase: 'stranded' };
      case 'idle':
        return { ...REST, dl: leftOver(v, r.now) };
    }
  }
}

/** The deadline a delivery is under: the socket's, or (a deadline that never reached it) the writer's own. 1: its budget still runs; -1: passed. */
function inDelivery(v: ClientReadout, now: number): Deadline {
  const at = v.deadline ?? v.writerDeadline;
  return at === null || at > now ? 1 : -1;
}

/** A deadline left on a connection outside a delivery: none, one still to pass (0), or passed (-1). */
function leftOver(v: ClientReadout, now: number): Deadline {
  if (v.deadline === null) return null;
  return v.deadline > now ? 0 : -1;
}
