/**
 * Collects a rehearsal's observed steps as they happen: the pods' `step` lines (pod.ts) and the
 * controller's own steps — each gate step it was allowed, read on every session of the pool in the
 * session's step order (observed-call.ts) the moment it happens, and the backfill, run here as an
 * observed step of each session. The
 * rehearsal awaits `settled()` after a gate step, before it changes the fleet, so the mark is
 * ordered before every step of the pods it then starts.
 */
import type { ValkeyClient } from '../../../valkey/index.js';
import type { GateStep } from '../gate/rules.js';
import { sessionKeys, type SessionRef } from '../keys.js';
import type { FencingScripts } from '../scripts.js';
import type { Mode, Phase } from '../state.js';
import type { RehearsalObserver } from './observer.js';
import { callObserved, type KeyspaceSeen } from './observed-call.js';
import type { PodOp, TraceEntry } from './trace.js';

const OPS: readonly string[] = ['acquire', 'renew', 'release', 'start'] satisfies PodOp[];

/** A pod's line for one fencing call and the session as it left it (pod.ts `step`). */
export interface PodStepLine {
  readonly ev: 'step';
  readonly op: PodOp;
  readonly owner: string;
  /** `<community>:<session>` */
  readonly session: string;
  readonly reply: unknown;
  readonly error?: string;
  readonly seen: KeyspaceSeen;
}

export class TraceRecorder {
  readonly entries: TraceEntry[] = [];
  /** Marks that could not be read (a teardown): the traces then miss a step, and say so. */
  readonly lost: string[] = [];
  private chain: Promise<void> = Promise.resolve();
  private slotOnly = false;

  constructor(
    private conn: ValkeyClient,
    private readonly sessions: readonly SessionRef[],
  ) {}

  /** After the cluster door: marks are read on the cluster, in each session's slot only. Returns the connection it replaced. */
  async retarget(conn: ValkeyClient): Promise<ValkeyClient> {
    await this.chain;
    const was = this.conn;
    this.conn = conn;
    this.slotOnly = true;
    return was;
  }

  /** A pod's `step` line (pod.ts); one that is not well formed is ignored (its step is then a gap the trace names). */
  podLine(pod: string, phase: Phase, ev: PodStepLine): void {
    if (typeof ev.op !== 'string' || !OPS.includes(ev.op) || typeof ev.session !== 'string' || typeof ev.owner !== 'string' || typeof ev.seen !== 'object' || ev.seen === null) return;
    this.entries.push({
      kind: 'pod',
      session: ev.session,
      pod,
      phase,
      owner: ev.owner,
      op: ev.op as PodOp,
      reply: ev.reply,
      ...(typeof ev.error === 'string' && { error: ev.error }),
      seen: ev.seen,
    });
  }

  /** `other`, and the recorder watching the gate steps the controller is allowed. */
  observing(other: RehearsalObserver): RehearsalObserver {
    return {
      ...other,
      stepAllowed: (e) => {
        this.gateStep(e.step, e);
        other.stepAllowed?.(e);
      },
    };
  }

  /** The gate allowed `step`; the deploy record after it. */
  gateStep(step: GateStep, record: { readonly target: Phase; readonly mode: Mode; readonly backfilled: boolean }): void {
    this.mark(`${step}`, (session, seen) => this.entries.push({ kind: 'gate', session, step, target: record.target, mode: record.mode, backfilled: record.backfilled, seen }));
  }

  /**
   * The operator's backfill (ops/backfill: newGen := max(oldGen, newGen)) over every session of the
   * pool, each in its own observed step: its place among the pods' steps is the server's.
   */
  async backfill(scripts: FencingScripts): Promise<void> {
    for (const s of this.sessions) {
      const k = sessionKeys(s);
      const r = await callObserved(this.conn, s, { script: scripts.get('ops/backfill'), keys: [k.oldGen, k.newGen], args: [] });
      if (r.error !== undefined) throw new Error(`the backfill on ${s.community}:${s.session}: ${r.error}`);
      this.entries.push({ kind: 'backfill', session: `${s.community}:${s.session}`, seen: r.seen });
    }
  }

  /** Every mark asked for so far has been read. */
  settled(): Promise<void> {
    return this.chain;
  }

  /** Waits for the marks under way and closes the recorder's connection. */
  async close(): Promise<void> {
    await this.chain;
    this.conn.disconnect();
  }

  private mark(what: string, push: (session: string, seen: KeyspaceSeen) => void): void {
    this.chain = this.chain.then(async () => {
      await Promise.all(
        this.sessions.map(async (s) => {
          try {
            push(`${s.community}:${s.session}`, (await callObserved(this.conn, s, null, this.slotOnly)).seen);
          } catch (err) {
            this.lost.push(`${what} on ${s.community}:${s.session}: ${(err as Error).message}`);
          }
        }),
      );
    });
  }
}
