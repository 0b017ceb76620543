/**
 * One outgress replica's view of the pause flag: an immutable snapshot behind one
 * reference, swapped whole. `read()` is the hot path: field reads only — no I/O, no lock, no
 * allocation, and no clock read either (a clock read allocates a number on every call: measured,
 * 20M reads caused 313 garbage collections). The age bound is a flag that a timer set for
 * `maxAgeMs` after each successful sync turns on; a synchronous burst of reads that outlasts the
 * deadline is answered from the flag as it was when the burst began. Lifecycle: subscribe to the invalidation channel, then load the initial state,
 * then ready. Events apply only when newer; a reconciler re-reads Valkey (MGET) on a jittered
 * interval so a dropped event repairs itself; past `maxAgeMs` since the last successful load or
 * reconciliation the replica answers "unavailable" (fail closed).
 */
import type { ValkeyClient } from '../../valkey/index.js';
import { decodeEvent, decodeStored, type PauseKeys, type PauseState } from './keys.js';

export type PauseAnswer = 'paused' | 'running' | 'unavailable';

/** What the replica does with an event as it arrives (tests drop or delay deliveries through it). */
export type Delivery = (event: PauseState, apply: () => void) => void;

/** The start sequence's phases, in the real order: subscribe, load the initial snapshot, ready. */
export type StartPhase = 'subscribe' | 'load' | 'ready';

/**
 * Awaited before each start phase, told which one is about to run (a model-driven run releases
 * them one at a time; the replica keeps its own order). Not called for a phase already done.
 */
export type StartGate = (phase: StartPhase) => Promise<void>;

export interface PauseReplicaOptions {
  readonly keys: PauseKeys;
  /** Commands (MGET) and the subscription each get their own connection. */
  readonly client: () => ValkeyClient;
  readonly reconcileMs: number;
  /** ± this share of reconcileMs, so that a fleet does not reconcile in step (default 0.2). */
  readonly jitter?: number;
  readonly maxAgeMs: number;
  readonly delivery?: Delivery;
  readonly startGate?: StartGate;
  readonly now?: () => number;
  /** The reconciler's and the age bound's timers (default: the event loop's, unref'd; a tour gives a clock it moves itself). */
  readonly timers?: ReplicaTimers;
}

/** How the replica arms and cancels its two timers. */
export interface ReplicaTimers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const LOOP_TIMERS: ReplicaTimers = {
  set: (fn, ms) => setTimeout(fn, ms).unref(),
  clear: (h) => clearTimeout(h as NodeJS.Timeout | undefined),
};

export interface PauseReplicaStatus {
  readonly ready: boolean;
  readonly paused: boolean | null;
  readonly version: number | null;
  /** Since the last successful load or reconciliation. */
  readonly ageMs: number | null;
  readonly reconciles: number;
  readonly reconcileFailures: number;
  readonly eventsApplied: number;
  readonly eventsIgnored: number;
}

export interface Held {
  readonly state: PauseState;
  /** When Valkey was last read successfully (load or reconciliation). */
  readonly syncedAt: number;
}

/**
 * The members a mutant changes (mutants/pause/impl/) are protected, so that an impl patch can
 * subclass the replica; nothing else about it is open.
 */
export class PauseReplica {
  protected held: Held | null = null;
  protected isReady = false;
  protected subscribed = false;
  protected closed = false;
  private timer: unknown;
  private inFlight: Promise<void> | null = null;
  /** True once the last successful sync is older than maxAgeMs (set by `staleTimer`). */
  protected stale = true;
  private staleTimer: unknown;
  protected readonly commands: ValkeyClient;
  private readonly subscriber: ValkeyClient;
  protected readonly now: () => number;
  private readonly timers: ReplicaTimers;
  protected counts = { reconciles: 0, reconcileFailures: 0, eventsApplied: 0, eventsIgnored: 0 };

  constructor(protected readonly opts: PauseReplicaOptions) {
    this.commands = opts.client();
    this.subscriber = opts.client();
    this.now = opts.now ?? (() => performance.now());
    this.timers = opts.timers ?? LOOP_TIMERS;
  }

  /** new + start; closes the replica when it cannot start. */
  static async open(opts: PauseReplicaOptions): Promise<PauseReplica> {
    const r = new PauseReplica(opts);
    try {
      await r.start();
      return r;
    } catch (err) {
      await r.close();
      throw err;
    }
  }

  /**
   * Subscribes, loads the initial snapshot, then reports ready. On failure the replica stays not
   * ready (and answers "unavailable"); start() may be called again.
   */
  async start(): Promise<void> {
    if (this.isReady || this.closed) return;
    await this.startSequence();
  }

  /** The start order: subscribe before the load, so that no event falls between them; ready last. */
  protected async startSequence(): Promise<void> {
    await this.phase('subscribe');
    await this.phase('load');
    await this.phase('ready');
  }

  /** One start phase, once the gate (if any) lets it run. */
  protected async phase(p: StartPhase): Promise<void> {
    if (this.closed || (p === 'subscribe' && this.subscribed)) return;
    await this.opts.startGate?.(p);
    if (this.closed) return;
    if (p === 'subscribe') {
      await this.subscribe();
      this.subscribed = true;
    } else if (p === 'load') await this.sync();
    else {
      this.isReady = true;
      this.schedule();
    }
  }

  /** The hot read. */
  read(): PauseAnswer {
    const h = this.held;
    if (!this.isReady || h === null || this.stale) return 'unavailable';
    return h.state.paused ? 'paused' : 'running';
  }

  status(): PauseReplicaStatus {
    const h = this.held;
    return { ready: this.isReady, paused: h?.state.paused ?? null, version: h?.state.version ?? null, ageMs: h ? this.now() - h.syncedAt : null, ...this.counts };
  }

  /** The age bound's flag: true before the first sync and once the last successful sync is past maxAgeMs. */
  pastAgeBound(): boolean {
    return this.stale;
  }

  /** After a local SetPaused committed: the caller's own snapshot, without waiting for its event. */
  applyLocal(state: PauseState): void {
    this.applyIfNewer(state);
  }

  /**
   * One reconciliation now (what the jittered timer runs): counted as a reconciliation or a failure;
   * a failure is thrown to the caller (the timer swallows it: the snapshot keeps ageing).
   */
  async reconcileNow(): Promise<void> {
    const run = this.reconcile().then(
      () => void this.counts.reconciles++,
      (err: unknown) => {
        this.counts.reconcileFailures++;
        throw err;
      },
    );
    this.inFlight = run.catch(() => {});
    try {
      await run;
    } finally {
      this.inFlight = null;
    }
  }

  /** Stops the reconciler and waits for a reconciliation in flight, then closes both connections. */
  async close(): Promise<void> {
    this.closed = true;
    this.isReady = false;
    this.timers.clear(this.timer);
    this.timers.clear(this.staleTimer);
    await this.inFlight?.catch(() => {});
    this.subscriber.disconnect();
    await this.commands.quit().catch(() => this.commands.disconnect());
  }

  protected async subscribe(): Promise<void> {
    this.subscriber.on('message', (channel: string, text: string) => {
      if (channel !== this.opts.keys.channel || this.closed) return;
      const e = decodeEvent(text);
      if (!e) return void this.counts.eventsIgnored++;
      const apply = () => this.applyIfNewer(e);
      if (this.opts.delivery) this.opts.delivery(e, apply);
      else apply();
    });
    // Resolves once the server confirmed the subscription: no event can fall before the load.
    await this.subscriber.subscribe(this.opts.keys.channel);
  }

  /** The reconciler's read of Valkey: the same MGET as the initial load. */
  protected async reconcile(): Promise<void> {
    await this.sync();
  }

  /** MGET state + version (one slot): the snapshot, if newer, and the age clock restarts. */
  protected async sync(): Promise<void> {
    const [paused, version] = await this.commands.mget(this.opts.keys.paused, this.opts.keys.version);
    const state = decodeStored(paused ?? null, version ?? null);
    const h = this.held;
    this.held = Object.freeze({ state: h === null || state.version > h.state.version ? state : h.state, syncedAt: this.now() });
    this.markFresh();
  }

  /** Fresh again for maxAgeMs from now (after a successful read of Valkey). */
  protected markFresh(): void {
    this.stale = false;
    this.timers.clear(this.staleTimer);
    if (!this.closed) this.staleTimer = this.timers.set(() => void (this.stale = true), this.opts.maxAgeMs);
  }

  protected applyIfNewer(e: PauseState): void {
    const h = this.held;
    if (h === null || e.version <= h.state.version) {
      this.counts.eventsIgnored++;
      return;
    }
    // An event carries a newer state but is not a read of Valkey: the age clock keeps running.
    this.held = Object.freeze({ state: e, syncedAt: h.syncedAt });
    this.counts.eventsApplied++;
  }

  protected schedule(): void {
    if (this.closed) return;
    const j = this.opts.jitter ?? 0.2;
    const delay = this.opts.reconcileMs * (1 - j + 2 * j * Math.random());
    this.timer = this.timers.set(() => {
      void this.reconcileNow()
        .catch(() => {})
        .finally(() => this.schedule());
    }, delay);
  }
}
