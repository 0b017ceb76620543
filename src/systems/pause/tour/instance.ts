/**
 * One instance of the pause tour: fresh keys whose version starts at a large base (not 0: the
 * model's version v is the real base + v), two real replicas (PauseReplica or a patch's) on leased
 * connections, their start phases gated, their deliveries held, their timers on the driver's clock,
 * and SetPaused calls (the real function, or a patch's) held before EXEC. `perform` runs one attempt
 * on the real code; `read` reads the real state back as the spec's variables: Valkey's keys, each
 * replica's own status and hot read, the messages its subscription really received. What only the
 * driver can know is its own record of what it did — the calls it began, the messages it dropped,
 * when (on its clock) it saw a load or reconciliation complete and what Valkey held then — never
 * the model's state.
 */
import { setImmediate as tick } from 'node:timers/promises';
import type { PauseModelEvent } from '../../../../models/pause/index.js';
import { TourObservationError, type Outcome, type Readback } from '../../../seam/tour/system.js';
import { decodeStored, pauseKeys, type PauseKeys, type PauseState } from '../keys.js';
import { normalisedCalls, normalisedEvents, normalisedVersions, type PauseBounds, type PauseEvent, type PauseModelState, type PendingCall, type Replica } from '../model-state.js';
import { patched, type PausePatch, type SetPausedFn } from '../patch.js';
import type { PauseReplica, StartPhase } from '../replica.js';
import type { ValkeyClient } from '../../../valkey/index.js';
import { InfrastructureFault } from '../../../valkey/fault.js';
import { DriverClock } from './clock.js';
import { BARRIER_PREFIX, type ConnectionLease, type LeaseControl } from './lease.js';
import { attemptLabel, decisionView, pauseTourModel, type PauseAttempt, type PauseDecision, type PauseTourModel, type PauseTourState, type ReplicaView } from './model.js';
import { observeKeyspace, replicasLine, type PauseObservation } from './observed.js';
import type { PauseTourRig } from './rig.js';
import type { Redis } from 'ioredis';

/** The real version of the model's version 0: the first write's INCR already crosses 2^31 (a 32-bit version shows). */
export const TOUR_BASE_VERSION = 2 ** 31 - 1;

/** Driver-clock milliseconds: the age bound, and a reconcile interval no Tick ever reaches (the driver fires that timer). */
export const TOUR_MAX_AGE_MS = 1000;
const TOUR_RECONCILE_MS = 1e9;

/** How long the real code may take to reach its next gate, reply, or message (a loaded machine: generous). */
const WAIT_MS = 20_000;

export interface PauseTiming {
  readonly bounds: PauseBounds;
  readonly patch?: PausePatch;
  /** The real version of the model's version 0 (default TOUR_BASE_VERSION; widths.ts's passes start elsewhere). */
  readonly baseVersion?: number;
}

interface Member {
  readonly name: Replica;
  readonly replica: PauseReplica;
  readonly control: LeaseControl;
  readonly leases: ConnectionLease[];
  /** Messages received and not yet delivered or dropped (real versions). */
  readonly inbox: { readonly state: PauseState; readonly apply: () => void }[];
  waiting: { readonly phase: StartPhase; readonly go: () => void } | null;
  settled: 'pending' | 'done' | 'failed';
  /** A load phase the driver released ran to its end without failing. */
  loaded: boolean;
}

interface HeldCall {
  readonly by: Replica;
  readonly paused: boolean;
  /** Set once the call's first write is waiting at the driver's gate. */
  atGate: boolean;
  settled: boolean;
  outcome: { ok: true } | { ok: false; error: unknown } | null;
  open: ((fate: WriteFate) => void) | null;
  readonly done: Promise<void>;
}

type Op = readonly [string, readonly unknown[]];
type Commands = Record<string, (...a: unknown[]) => unknown>;

/** Where a held call's writes go: all to the writer, all refused, or the first to the writer and the rest refused. */
type WriteFate = 'commit' | 'fail' | 'failLater' | 'abandon';

/** Commands a SetPaused call may send that write nothing: sent at once, never held, never failed. */
const READS = new Set(['get', 'mget', 'exists', 'strlen', 'getrange', 'ttl', 'pttl', 'type', 'watch', 'unwatch', 'ping', 'publish']);
const isRead = (name: string) => READS.has(name);

let builtin: ReadonlySet<string> | null = null;

/** A command of the client (ioredis's builtin list, or `call`) that is no read. */
function isWrite(name: string, client: Redis): boolean {
  if (name === 'call') return true;
  builtin ??= new Set(client.getBuiltinCommands());
  return !isRead(name) && builtin.has(name);
}

const showState = (s: { paused: boolean; version: number }) => `${s.paused ? 'paused' : 'running'}@v${s.version}`;

export class PauseInstance {
  readonly keys: PauseKeys;
  readonly clock = new DriverClock();
  readonly log: string[] = [];
  private readonly members = new Map<Replica, Member>();
  private readonly calls: HeldCall[] = [];
  private readonly setPausedFn: SetPausedFn;
  private begun = 0;
  private barriers = 0;
  private wake: (() => void)[] = [];
  /** Valkey's value at each model version, as read back after every attempt. */
  private readonly history: boolean[] = [];
  private readonly syncs = new Map<Replica, { readonly at: number; readonly version: number }>();
  private readonly applied = new Map<Replica, number>();
  private readonly dropped = new Map<Replica, number[]>();
  private readonly model: PauseTourModel;
  private readonly base: number;
  /** The state the instance is in as far as the model knows (null after an unpredicted decision: read it). */
  private believed: PauseTourState | null;
  /** The last attempt's decision was not the model's. */
  private unpredicted = false;
  /** An observation that broke while an attempt ran (the next read reports it). */
  private broken: TourObservationError | null = null;

  constructor(
    private readonly rig: PauseTourRig,
    private readonly timing: PauseTiming,
  ) {
    this.keys = pauseKeys(rig.topology.keyPrefix, rig.nextName());
    this.model = pauseTourModel(timing.bounds);
    this.base = timing.baseVersion ?? TOUR_BASE_VERSION;
    this.believed = this.model.initialStates()[0]!;
    const make = patched(timing.patch);
    this.setPausedFn = make.setPaused;
    for (const name of timing.bounds.replicas) {
      const control: LeaseControl = { next: 'ok', landing: null, sent: 0, notify: () => this.notify() };
      const leases: ConnectionLease[] = [];
      const m: Member = {
        name,
        control,
        leases,
        inbox: [],
        waiting: null,
        settled: 'pending',
        loaded: false,
        replica: make.replica({
          keys: this.keys,
          client: () => {
            const l = rig.lease(control);
            leases.push(l);
            return l as unknown as ValkeyClient;
          },
          reconcileMs: TOUR_RECONCILE_MS,
          maxAgeMs: TOUR_MAX_AGE_MS,
          now: () => this.clock.now(),
          timers: this.clock.timersOf(name),
          delivery: (state, apply) => {
            m.inbox.push({ state, apply });
            this.notify();
          },
          startGate: (phase) =>
            new Promise<void>((go) => {
              m.waiting = { phase, go };
              this.notify();
            }),
        }),
      };
      this.members.set(name, m);
      this.applied.set(name, 0);
      this.dropped.set(name, []);
    }
  }

  /** Writes the base version and starts every replica, each held at its first gate. */
  async open(): Promise<void> {
    await this.rig.writer.set(this.keys.version, String(this.base));
    for (const m of this.members.values()) this.start(m);
    for (const m of this.members.values()) await this.until(() => m.waiting !== null || m.settled !== 'pending', `${m.name} to reach its first start phase`);
  }

  private start(m: Member): void {
    m.settled = 'pending';
    void m.replica
      .start()
      .then(
        () => void (m.settled = 'done'),
        () => void (m.settled = 'failed'),
      )
      .finally(() => this.notify());
  }

  private notify(): void {
    const w = this.wake;
    this.wake = [];
    for (const f of w) f();
  }

  /** Waits until `pred` holds; past WAIT_MS an infrastructure fault (the tour is then no verdict). */
  private async until(pred: () => boolean, what: string): Promise<void> {
    const end = performance.now() + WAIT_MS;
    while (!pred()) {
      const left = end - performance.now();
      if (left <= 0) throw new InfrastructureFault({ kind: 'timeout', reason: `pause tour: waited ${WAIT_MS} ms for ${what}` });
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 50));
        this.wake.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  private member(r: Replica): Member {
    const m = this.members.get(r);
    if (!m) throw new RangeError(`no replica ${r} in this instance`);
    return m;
  }

  private async valkey(): Promise<PauseState> {
    const [paused, version] = await this.rig.writer.mget(this.keys.paused, this.keys.version);
    return decodeStored(paused ?? null, version ?? null);
  }

  private modelVersion(real: number): number {
    return real - this.base;
  }

  /** The highest version each replica ever held, as the driver saw it (the spec's history variable `applied`). */
  private observeHeld(): void {
    for (const m of this.members.values()) {
      const v = m.replica.status().version;
      if (v !== null) this.applied.set(m.name, Math.max(this.applied.get(m.name)!, this.modelVersion(v)));
    }
  }

  /** Publishes a barrier behind everything sent so far and waits until every live subscription has it. */
  private async barrier(): Promise<void> {
    const n = ++this.barriers;
    const subs = [...this.members.values()].flatMap((m) => m.leases.filter((l) => l.subscribed));
    if (subs.length === 0) return;
    await this.rig.writer.publish(this.keys.channel, `${BARRIER_PREFIX}${n}`);
    await this.until(() => subs.every((l) => !l.subscribed || l.lastBarrier >= n), `barrier ${n} on ${this.keys.channel}`);
  }

  // ---- attempts ----

  /**
   * One attempt. The instance predicts it itself, from the state it is in (the model's prediction
   * of the last attempt, or the state read back when that one was not predicted): a decision the
   * model does not predict marks the next read-back `unpredicted`, so the engine never goes on
   * with this instance as if it were in a model state (it may hold what it does not read back).
   */
  async perform(a: PauseAttempt): Promise<Outcome<PauseDecision>> {
    const label = attemptLabel(a);
    this.log.push(label);
    const from = this.believed ?? (await this.readState());
    const predicted = this.model.predict(from, a);
    const out = await this.run(a, label);
    this.observeHeld();
    // What Valkey holds now is an observation: one that breaks the history is read()'s to report.
    if (a.kind === 'failLaterWrite' || a.kind === 'overlap' || (a.kind === 'event' && (a.ev.type === 'CommitSetPaused' || a.ev.type === 'FailSetPaused')))
      await this.noteHistory().catch((err: unknown) => {
        if (!(err instanceof TourObservationError)) throw err;
        this.broken ??= err;
      });
    this.unpredicted = decisionView(a, out.decision).label !== decisionView(a, predicted.decision).label;
    this.believed = this.unpredicted ? null : predicted.next;
    return out;
  }

  private async run(a: PauseAttempt, label: string): Promise<Outcome<PauseDecision>> {
    const refused = (note: string): Outcome<PauseDecision> => ({ decision: { kind: 'refused' }, note });
    const error = (message: string): Outcome<PauseDecision> => ({ decision: { kind: 'error', message }, note: message });
    const moved = (note: string): Outcome<PauseDecision> => ({ decision: { kind: 'transition', label }, note });
    if (a.kind === 'failLoad') return this.failLoad(a.r);
    if (a.kind === 'failReconcile') return this.reconcile(a.r, 'fail', label);
    if (a.kind === 'overlap') return this.reconcile(a.r, 'hold', label, a.c);
    if (a.kind === 'failLaterWrite') {
      const call = this.calls.find((c) => c.by === a.c.by && c.paused === a.c.paused && c.atGate);
      if (!call) return refused('no such call is held');
      const o = await this.finish(call, 'failLater');
      return o.ok ? moved('its first write committed; it made no other') : error(`a write after its first was refused and the call failed: ${String(o.error).slice(0, 80)}`);
    }
    const ev: PauseModelEvent = a.ev;
    switch (ev.type) {
      case 'Subscribe':
      case 'Load':
      case 'Ready': {
        const m = this.member(ev.r);
        const want = ev.type.toLowerCase() as StartPhase;
        await this.until(() => m.waiting !== null || m.settled !== 'pending', `${ev.r} to reach a start phase`);
        if (m.waiting?.phase !== want) return refused(`${ev.r} waits at ${m.waiting ? `its ${m.waiting.phase} phase` : 'no start phase'}`);
        const before = want === 'load' ? await this.valkey() : null;
        await this.release(m);
        if (m.settled === 'failed') return error(`${ev.r}'s ${want} phase failed`);
        if (want === 'load') m.loaded = true;
        if (before) this.syncs.set(ev.r, { at: this.clock.now(), version: this.modelVersion(before.version) });
        return moved(`${ev.r} ran its ${want} phase`);
      }
      case 'BeginSetPaused': {
        const ready = this.member(ev.r).replica.status().ready;
        if (!ready) return refused(`${ev.r} is not ready`);
        if (this.begun >= this.timing.bounds.maxCalls) return refused(`${this.begun} calls made (MaxCalls)`);
        this.begun += 1;
        // Two alike calls pending are one (the spec's pending is a set): the second joins the first.
        if (this.calls.some((c) => c.by === ev.r && c.paused === ev.p)) return moved('joins the alike call already held');
        const call = this.begin(ev.r, ev.p);
        await this.until(() => call.atGate || call.settled, `SetPaused to reach its EXEC`);
        if (!call.atGate) return error(`SetPaused(${ev.p}) returned before its first write${call.outcome && !call.outcome.ok ? `: ${String(call.outcome.error)}` : ''}`);
        return moved('held before its first write');
      }
      case 'CommitSetPaused':
      case 'FailSetPaused': {
        const call = this.calls.find((c) => c.by === ev.c.by && c.paused === ev.c.paused && c.atGate);
        if (!call) return refused('no such call is held');
        const commit = ev.type === 'CommitSetPaused';
        const o = await this.finish(call, commit ? 'commit' : 'fail');
        if (commit && !o.ok) return error(`EXEC failed: ${String(o.error)}`);
        if (!commit && o.ok) return error('the write meant to fail committed');
        return moved(commit ? 'EXEC committed' : `EXEC failed: ${String((o as { error: unknown }).error).slice(0, 80)}`);
      }
      case 'Deliver':
      case 'Drop': {
        const m = this.member(ev.r);
        const find = () => m.inbox.findIndex((x) => this.modelVersion(x.state.version) === ev.e.version && x.state.paused === ev.e.paused);
        let i = find();
        // A replayed path runs its attempts with no read (and no barrier) between them: a message
        // published by the attempt before may still be on its way. A barrier behind it waits for it.
        if (i < 0) {
          await this.barrier();
          i = find();
        }
        if (i < 0) return error(`${ev.r} never received ${showState(ev.e)}`);
        const [msg] = m.inbox.splice(i, 1);
        if (ev.type === 'Deliver') msg!.apply();
        else {
          const held = m.replica.status().version;
          if (held !== null && ev.e.version > this.modelVersion(held)) this.dropped.get(ev.r)!.push(ev.e.version);
        }
        return moved(ev.type === 'Deliver' ? 'delivered' : 'dropped');
      }
      case 'Reconcile':
        return this.reconcile(ev.r, 'ok', label);
      case 'Tick': {
        const fired = this.clock.advance(TOUR_MAX_AGE_MS + 1).filter((t) => t.delay === TOUR_MAX_AGE_MS);
        return fired.length > 0 ? moved(`${fired.length} age timer(s) fired`) : refused('no age timer armed');
      }
      case 'Read':
        return refused('the hot read is no action');
    }
  }

  /** Lets m's next start phase run and waits until it reached its next gate or finished starting. */
  private async release(m: Member): Promise<void> {
    const w = m.waiting!;
    m.waiting = null;
    w.go();
    await this.until(() => m.waiting !== null || m.settled !== 'pending', `${m.name} to finish its ${w.phase} phase`);
  }

  private async failLoad(r: Replica): Promise<Outcome<PauseDecision>> {
    const m = this.member(r);
    await this.until(() => m.waiting !== null || m.settled !== 'pending', `${r} to reach a start phase`);
    if (m.waiting?.phase !== 'load') return { decision: { kind: 'refused' }, note: `${r} waits at ${m.waiting ? `its ${m.waiting.phase} phase` : 'no start phase'}` };
    m.control.next = 'fail';
    await this.release(m);
    m.control.next = 'ok';
    if (m.settled !== 'failed')
      return { decision: { kind: 'error', message: `${r}'s load did not fail (${m.settled === 'done' ? 'it started' : `it waits at ${m.waiting?.phase}`})` }, note: 'load did not fail' };
    // The replica stays not ready; start() again (its documented retry) brings it back to the load gate.
    this.start(m);
    await this.until(() => m.waiting !== null || m.settled !== 'pending', `${r} to reach a start phase again`);
    return { decision: { kind: 'failed' }, note: `${r}'s load failed (NOPERM), start() again waits at ${m.waiting?.phase ?? 'nothing'}` };
  }

  /**
   * A reconciliation of r: a ready replica's armed reconcile timer fired (it must have one), an
   * unready one's reconcileNow(). `fail`: its MGET goes to the user without MGET. `hold`: its reply
   * is held while call c commits and its event is delivered to r, then lands.
   */
  private async reconcile(r: Replica, fate: 'ok' | 'fail' | 'hold', label: string, c?: PendingCall): Promise<Outcome<PauseDecision>> {
    const m = this.member(r);
    const st = m.replica.status();
    const call = c ? this.calls.find((x) => x.by === c.by && x.paused === c.paused && x.atGate) : undefined;
    if (st.version === null || (c && !call)) return { decision: { kind: 'refused' }, note: st.version === null ? `${r} has no snapshot to reconcile` : 'no such call is held' };
    const before = await this.valkey();
    let done: Promise<'ok' | 'failed'>;
    m.control.next = fate;
    if (st.ready) {
      const timer = this.clock.pending(r).find((t) => t.delay > TOUR_MAX_AGE_MS);
      if (!timer) {
        m.control.next = 'ok';
        return { decision: { kind: 'error', message: `${r} is ready and has no reconcile timer armed` }, note: 'no reconcile timer' };
      }
      const c0 = m.replica.status();
      this.clock.fire(timer);
      done = (async () => {
        let s = m.replica.status();
        const end = performance.now() + WAIT_MS;
        while (s.reconciles === c0.reconciles && s.reconcileFailures === c0.reconcileFailures) {
          if (performance.now() > end) throw new InfrastructureFault({ kind: 'timeout', reason: `pause tour: ${r}'s timer reconciliation did not end within ${WAIT_MS} ms` });
          await tick();
          s = m.replica.status();
        }
        return s.reconciles > c0.reconciles ? 'ok' : 'failed';
      })();
    } else
      done = m.replica.reconcileNow().then(
        () => 'ok' as const,
        () => 'failed' as const,
      );
    let note = '';
    if (fate === 'hold') {
      await this.until(() => m.control.landing !== null, `${r}'s reconcile reply`);
      const o = await this.finish(call!, 'commit');
      if (!o.ok) {
        m.control.landing?.();
        await done;
        return { decision: { kind: 'error', message: `EXEC failed: ${String(o.error)}` }, note: 'commit failed' };
      }
      await this.barrier();
      const now = await this.valkey();
      const i = m.inbox.findIndex((x) => x.state.version === now.version && x.state.paused === now.paused);
      if (i >= 0) m.inbox.splice(i, 1)[0]!.apply();
      this.observeHeld();
      note = `reply held; committed ${showState({ paused: now.paused, version: this.modelVersion(now.version) })}${i >= 0 ? ' and delivered it' : ''}; then the reply landed`;
      m.control.landing!();
    }
    const result = await done;
    m.control.next = 'ok';
    if (fate === 'fail')
      return result === 'failed'
        ? { decision: { kind: 'failed' }, note: 'the MGET was refused (NOPERM): nothing changes' }
        : { decision: { kind: 'error', message: 'the reconciliation meant to fail succeeded' }, note: 'succeeded' };
    if (result === 'failed') return { decision: { kind: 'error', message: 'the reconciliation failed' }, note: 'failed' };
    this.syncs.set(r, { at: this.clock.now(), version: this.modelVersion(before.version) });
    return { decision: { kind: 'transition', label }, note: note || `reconciled (${st.ready ? 'its timer fired' : 'reconcileNow'})` };
  }

  /**
   * A real SetPaused call whose first write waits at the driver's gate. The call gets a client on
   * which every command is real: reads (a patch's GET) and the PUBLISH go to the writer at once;
   * every write — a MULTI's EXEC, a pipeline's commands one by one, a SET, INCR, DEL, EVAL or
   * `call(...)` sent on its own — is one write of the call. The first waits at the gate; the fate
   * decides where each is sent: the writer, or the user without any write (a real refusal: NOPERM,
   * or EXECABORT for a transaction). However the call is built, its writes meet the fault.
   */
  private begin(by: Replica, paused: boolean): HeldCall {
    const rig = this.rig;
    const caller = this.member(by).replica;
    let resolveDone!: () => void;
    const call: HeldCall = { by, paused, atGate: false, settled: false, outcome: null, open: null, done: new Promise<void>((r) => (resolveDone = r)) };
    let opened: Promise<WriteFate> | null = null;
    let writes = 0;
    const write = async <T>(send: (conn: Redis) => Promise<T>): Promise<T> => {
      const k = ++writes;
      opened ??= new Promise<WriteFate>((open) => {
        call.open = open;
        call.atGate = true;
        this.notify();
      });
      const fate = await opened;
      if (fate === 'abandon') throw new Error('the tour instance ended before this write');
      return send(fate === 'commit' || (fate === 'failLater' && k === 1) ? rig.writer : rig.failing);
    };
    const recorder = (kind: 'multi' | 'pipeline') => {
      const ops: Op[] = [];
      const exec = async () => {
        if (kind === 'multi')
          return write((conn) => {
            const real = conn.multi();
            for (const [op, args] of ops) (real as unknown as Commands)[op]!(...args);
            return real.exec();
          });
        // A pipeline is no transaction: each of its commands is a write of its own.
        const replies: [Error | null, unknown][] = [];
        for (const [op, args] of ops)
          replies.push(
            await write((conn) => (conn as unknown as Commands)[op]!(...args) as Promise<unknown>).then(
              (r): [null, unknown] => [null, r],
              (e: unknown): [Error, null] => [e as Error, null],
            ),
          );
        return replies;
      };
      const rec: Record<string, unknown> = new Proxy(
        {},
        {
          get: (_t, name: string) => {
            if (name === 'exec') return exec;
            if (name === 'then') return undefined;
            return (...args: unknown[]) => {
              ops.push([name, args]);
              return rec;
            };
          },
        },
      );
      return rec;
    };
    const client = new Proxy(rig.writer, {
      get: (target, name, recv) => {
        if (name === 'multi' || name === 'pipeline') return () => recorder(name);
        const own = Reflect.get(target, name, recv) as unknown;
        if (typeof name !== 'string' || typeof own !== 'function' || !isWrite(name, target)) return own;
        return (...args: unknown[]) => {
          // `call('GET', …)` is a read; `call` of anything else a write.
          if (name === 'call' && !isRead(String(args[0]).toLowerCase())) return write((conn) => conn.call(String(args[0]), ...(args.slice(1) as string[])));
          if (name === 'call') return (own as (...a: unknown[]) => unknown).apply(target, args);
          return write((conn) => (conn as unknown as Commands)[name]!(...args) as Promise<unknown>);
        };
      },
    }) as unknown as ValkeyClient;
    this.calls.push(call);
    void this.setPausedFn(client, this.keys, paused, (s) => caller.applyLocal(s))
      .then(
        () => void (call.outcome = { ok: true }),
        (error: unknown) => void (call.outcome = { ok: false, error }),
      )
      .finally(() => {
        call.settled = true;
        resolveDone();
        this.notify();
      });
    return call;
  }

  private async finish(call: HeldCall, fate: 'commit' | 'fail' | 'failLater'): Promise<{ ok: true } | { ok: false; error: unknown }> {
    this.calls.splice(this.calls.indexOf(call), 1);
    call.open!(fate);
    await this.until(() => call.settled, `SetPaused's ${fate}`);
    return call.outcome!;
  }

  // ---- the real state ----

  async read(): Promise<Readback<PauseTourState, PauseObservation>> {
    const state = await this.readState();
    const keyspace = await observeKeyspace(this.rig.writer, this.keys, this.base);
    return { state: this.unpredicted ? { ...state, unpredicted: true } : state, observation: { ...keyspace, replicas: this.answers() } };
  }

  /** What every replica answers now (hot read, age flag, status), in the bounds' order: the observed digest's read side. */
  answers(): string {
    return replicasLine(
      [...this.members.values()].map((m) => ({ name: m.name, replica: m.replica })),
      this.base,
    );
  }

  /**
   * Valkey's value at each version: read after every attempt that can write (a replayed path runs
   * its attempts without a read between them, and two writes in a row are two versions).
   */
  private async noteHistory(): Promise<void> {
    const v = await this.valkey();
    const mv = this.modelVersion(v.version);
    if (mv === this.history.length + 1) this.history.push(v.paused);
    else if (mv !== this.history.length) throw new TourObservationError(`Valkey's version went from ${this.base + this.history.length} to ${v.version} in one step`);
    else if (mv > 0 && this.history[mv - 1] !== v.paused) throw new TourObservationError(`Valkey's value changed to ${v.paused} without a new version (${v.version})`);
    else if (mv === 0 && v.paused) throw new TourObservationError('Valkey holds paused at the base version');
  }

  /** The real state as the spec's variables and each replica's view (no mark: what the instance is in). */
  private async readState(): Promise<PauseTourState> {
    if (this.broken) throw this.broken;
    await this.barrier();
    await this.noteHistory();
    this.observeHeld();
    const rs = this.timing.bounds.replicas;
    const per = <T>(f: (m: Member) => T) => Object.fromEntries(rs.map((r) => [r, f(this.member(r))])) as Record<Replica, T>;
    const snapOf = (m: Member): PauseEvent | null => {
      const st = m.replica.status();
      return st.version === null ? null : { paused: st.paused!, version: this.modelVersion(st.version) };
    };
    const event = (s: PauseState): PauseEvent => ({ paused: s.paused, version: this.modelVersion(s.version) });
    const model: PauseModelState = {
      history: [...this.history],
      calls: this.begun,
      pending: normalisedCalls(this.calls.filter((c) => c.atGate).map((c) => ({ by: c.by, paused: c.paused, version: 0 }))),
      chan: per((m) => normalisedEvents(m.inbox.map((x) => event(x.state)))),
      dropped: per((m) => {
        const s = snapOf(m);
        return normalisedVersions(this.dropped.get(m.name)!.filter((x) => s === null || x > s.version));
      }),
      subscribed: per((m) => m.leases.some((l) => l.subscribed)),
      snap: per(snapOf),
      // The age by the driver's clock: past the bound since the last sync the driver saw complete.
      age: per((m) => {
        const sync = this.syncs.get(m.name);
        return snapOf(m) === null || sync === undefined ? 0 : this.clock.now() - sync.at > TOUR_MAX_AGE_MS ? 1 : 0;
      }),
      ready: per((m) => m.replica.status().ready),
      applied: per((m) => this.applied.get(m.name)!),
      synced: per((m) => this.syncs.get(m.name)?.version ?? 0),
    };
    const replicas = per(
      (m): ReplicaView => ({
        answer: m.replica.read(),
        stale: m.replica.pastAgeBound(),
        timer: this.clock.pending(m.name).some((t) => t.delay > TOUR_MAX_AGE_MS),
        gate: m.waiting?.phase ?? (m.settled === 'done' ? 'started' : m.settled === 'failed' ? 'failed' : 'busy'),
        loaded: m.loaded,
      }),
    );
    const state: PauseTourState = { model, replicas };
    this.believed = state;
    return state;
  }

  /** 1000 hot reads: no command may leave any replica, and the answer may not change. */
  hotReadFinding(): string | null {
    for (const m of this.members.values()) {
      const sent = m.control.sent;
      const first = m.replica.read();
      for (let i = 0; i < 1000; i++) if (m.replica.read() !== first) return `${m.name}'s hot read changed its answer within 1000 reads`;
      if (m.control.sent !== sent) return `${m.name}'s hot read sent ${m.control.sent - sent} command(s) in 1000 reads`;
    }
    return null;
  }

  /**
   * Ends the instance: held calls abandoned, every replica closed — after close() a replica has no
   * timer armed, answers "unavailable" and holds no subscription (what it does not do is a finding,
   * returned) — and the keys deleted.
   */
  async close(): Promise<string | null> {
    for (const c of this.calls.splice(0)) c.open?.('abandon');
    let finding: string | null = null;
    await Promise.all(
      [...this.members.values()].map(async (m) => {
        const closing = m.replica.close();
        m.waiting?.go();
        m.waiting = null;
        m.control.landing?.();
        await closing;
        const left = this.clock.pending(m.name);
        if (left.length > 0) finding ??= `after close() ${m.name} still has ${left.length} timer(s) armed (delays ${left.map((t) => t.delay).join(', ')})`;
        if (m.replica.read() !== 'unavailable') finding ??= `after close() ${m.name} answers '${m.replica.read()}'`;
        if (m.leases.some((l) => l.subscribed)) finding ??= `after close() ${m.name} is still subscribed`;
      }),
    );
    await this.rig.writer.del(this.keys.paused, this.keys.version);
    return finding;
  }
}
