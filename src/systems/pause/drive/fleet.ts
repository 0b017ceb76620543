/**
 * One walk's replicas, each a real PauseReplica (or a patch's) with its own connections, its start
 * phases gated and its deliveries held: every message its subscriber really received from Valkey
 * waits in `held` until the walk delivers it (in any order) or drops it. What the fleet records
 * beyond the replicas' own answers is only what the driver did: the messages it dropped, the start
 * phases it released and which phase the replica reported running.
 */
import type { Replica } from '../model-state.js';
import type { PauseKeys, PauseState } from '../keys.js';
import type { PauseReplica, StartPhase } from '../replica.js';
import type { PausePatch } from '../patch.js';
import { patched } from '../patch.js';
import type { Topology } from '../../../valkey/index.js';
import { InfrastructureFault } from '../../../valkey/fault.js';
import { Signal } from './signal.js';

/** A message the subscriber received, not yet delivered or dropped. */
export interface HeldMessage {
  readonly state: PauseState;
  readonly apply: () => void;
  /** The walk step at which it arrived. */
  readonly step: number;
}

export interface FleetMember {
  readonly name: Replica;
  readonly replica: PauseReplica;
  /** Every message the subscriber received, in arrival order. */
  readonly received: PauseState[];
  readonly held: HeldMessage[];
  /** The driver's record of its faults: the messages it dropped. */
  readonly dropped: PauseState[];
  /** The start phases that ran, in the replica's own order. */
  readonly phases: StartPhase[];
}

export interface FleetOptions {
  readonly topology: Topology;
  readonly keys: PauseKeys;
  readonly replicas: readonly Replica[];
  readonly maxAgeMs: number;
  readonly patch?: PausePatch;
  /** The step number messages are stamped with. */
  readonly step: () => number;
}

/** No reconciliation of its own during a walk: Reconcile is a model event (reconcileNow). */
const RECONCILE_NEVER_MS = 3_600_000;
/** A start phase that has not reached its next gate by then is an infrastructure fault. */
const PHASE_TIMEOUT_MS = 10_000;

interface Member extends FleetMember {
  waiting: { phase: StartPhase; go: () => void } | null;
  settled: 'pending' | 'done' | 'failed';
  startError?: unknown;
}

export class Fleet {
  readonly signal = new Signal();
  private readonly members = new Map<Replica, Member>();

  constructor(opts: FleetOptions) {
    const make = patched(opts.patch).replica;
    for (const name of opts.replicas) {
      const rec: Omit<Member, 'name' | 'replica'> = { received: [], held: [], dropped: [], phases: [], waiting: null, settled: 'pending' };
      const replica = make({
        keys: opts.keys,
        client: () => opts.topology.client(),
        reconcileMs: RECONCILE_NEVER_MS,
        jitter: 0,
        maxAgeMs: opts.maxAgeMs,
        delivery: (state, apply) => {
          rec.received.push(state);
          rec.held.push({ state, apply, step: opts.step() });
          this.signal.notify();
        },
        startGate: (phase) =>
          new Promise<void>((go) => {
            rec.waiting = { phase, go };
            this.signal.notify();
          }),
      });
      this.members.set(name, Object.assign(rec, { name, replica }));
    }
  }

  /** Every replica begins its start sequence now; each stops at its first gate. */
  startAll(): void {
    for (const m of this.members.values()) {
      void m.replica
        .start()
        .then(
          () => void (m.settled = 'done'),
          (err: unknown) => {
            m.settled = 'failed';
            m.startError = err;
          },
        )
        .finally(() => this.signal.notify());
    }
  }

  get(r: Replica): FleetMember {
    const m = this.members.get(r);
    if (!m) throw new RangeError(`no replica ${r} in this walk`);
    return m;
  }

  all(): FleetMember[] {
    return [...this.members.values()];
  }

  /**
   * Lets r's next start phase run, whichever the replica says it is, and waits until it is done
   * (the replica reached its next gate or finished starting). Null when its start was already over.
   */
  async release(r: Replica): Promise<StartPhase | null> {
    const m = this.members.get(r)!;
    const idle = () => m.waiting !== null || m.settled !== 'pending';
    if (!(await this.signal.until(idle, PHASE_TIMEOUT_MS))) throw this.timeout(r, 'reach its next start phase');
    const w = m.waiting;
    if (w === null) return null;
    m.waiting = null;
    w.go();
    if (!(await this.signal.until(idle, PHASE_TIMEOUT_MS))) throw this.timeout(r, `finish its ${w.phase} phase`);
    if (m.settled === 'failed') throw m.startError;
    m.phases.push(w.phase);
    return w.phase;
  }

  /** Waits (bounded) until r holds a received message equal to `e`; takes it out of `held`. */
  async take(r: Replica, e: PauseState, waitMs: number): Promise<HeldMessage | null> {
    const m = this.members.get(r)!;
    const at = () => m.held.findIndex((h) => h.state.version === e.version && h.state.paused === e.paused);
    if (!(await this.signal.until(() => at() >= 0, waitMs))) return null;
    return m.held.splice(at(), 1)[0]!;
  }

  /** Waits (bounded) until r has received a message equal to `e`. */
  async arrived(r: Replica, e: PauseState, waitMs: number): Promise<boolean> {
    const m = this.members.get(r)!;
    return this.signal.until(() => m.received.some((s) => s.version === e.version && s.paused === e.paused), waitMs);
  }

  /** Releases every gate still closed (so that start() settles) and closes the replicas. */
  async close(): Promise<void> {
    await Promise.all(
      [...this.members.values()].map(async (m) => {
        const closing = m.replica.close();
        m.waiting?.go();
        m.waiting = null;
        await closing;
      }),
    );
  }

  private timeout(r: Replica, what: string): InfrastructureFault {
    return new InfrastructureFault({ kind: 'timeout', reason: `replica ${r} did not ${what} within ${PHASE_TIMEOUT_MS} ms` });
  }
}
