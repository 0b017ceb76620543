/**
 * One model event, done for real. SetPaused: BeginSetPaused only accepts the call (the real design
 * announces nothing), CommitSetPaused runs SetPaused on the writer, FailSetPaused runs it on the
 * writer whose EXEC aborts. Deliver / Drop take the real message the replica's subscriber received
 * (waiting, bounded, for it to arrive) and apply it or throw it away. Reconcile is reconcileNow(),
 * Tick is real time passing beyond maxAgeMs, Subscribe / Load / Ready release the replica's next
 * start phase — whichever the replica itself runs next. What the twin predicted of the step and
 * the real system did not do comes back as a conformance note.
 *
 * FailSetPaused is one of two real failures, by the step's parity (deterministic: walk i replays
 * alone): odd steps, the ACL writer whose EXEC aborts; even steps, a connection killed while the
 * node owning the keys' slot is paused for writes (killed-write.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { PauseModelEvent } from '../../../../models/pause/index.js';
import type { PauseModelState, PendingCall, Replica } from '../model-state.js';
import type { PauseKeys, PauseState } from '../keys.js';
import type { StartPhase } from '../replica.js';
import type { SetPausedFn } from '../patch.js';
import { decodeStored } from '../keys.js';
import { asInfrastructureFault } from '../../../valkey/fault.js';
import type { Fleet } from './fleet.js';
import { killedWrite } from './killed-write.js';
import type { DriveWorld } from './world.js';

/**
 * The fault kinds a walk exercised, for the run's figures: a message dropped; delivered after other
 * steps came between; delivered or dropped while an older one was still held (reordered); a write
 * that really failed (EXEC aborted: failed-write; its connection killed on a paused node:
 * killed-write); a second call begun while one was pending (concurrent); a commit while a replica
 * had not loaded yet (it starts late).
 */
export const FAULT_KINDS = ['dropped', 'delayed', 'reordered', 'failed-write', 'killed-write', 'concurrent', 'late-start'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface StepContext {
  readonly world: DriveWorld;
  readonly fleet: Fleet;
  readonly keys: PauseKeys;
  readonly setPaused: SetPausedFn;
  readonly replicas: readonly Replica[];
  /** How long a predicted message may take to arrive. */
  readonly deliveryWaitMs: number;
  /** A Tick's sleep: beyond maxAgeMs plus the checkers' slack. */
  readonly tickMs: number;
  readonly step: number;
}

export interface StepOutcome {
  /** What the twin predicted of this step and the real system did not do. */
  readonly notes: readonly string[];
  /** A load or reconciliation of this replica completed. */
  readonly synced?: Replica;
  readonly faults: readonly FaultKind[];
  /** Subscribe / Load / Ready: the start phase the replica really ran (null: its start was over). */
  readonly ran?: StartPhase | null;
  /** Deliver / Drop: the message the subscriber received and the walk took (null: it never arrived). */
  readonly taken?: PauseState | null;
}

const show = (e: { paused: boolean; version: number }) => `${e.paused ? 'paused' : 'running'}@v${e.version}`;

export async function execute(ev: PauseModelEvent, prev: PauseModelState, label: string, ctx: StepContext): Promise<StepOutcome> {
  const { fleet } = ctx;
  const notes: string[] = [];
  const faults: FaultKind[] = [];
  switch (ev.type) {
    case 'Subscribe':
    case 'Load':
    case 'Ready': {
      const ran = await fleet.release(ev.r);
      const want = ev.type.toLowerCase();
      if (ran !== want) notes.push(`${label} ran ${ev.r}'s ${ran === null ? 'nothing (its start was over)' : `${ran} phase`}`);
      return { notes, faults, ran, ...(ran === 'load' ? { synced: ev.r } : {}) };
    }
    case 'BeginSetPaused':
      if (prev.pending.length > 0) faults.push('concurrent');
      return { notes, faults };
    case 'CommitSetPaused': {
      // A replica starts late: its initial load will read this write.
      if (fleet.all().some((m) => !m.phases.includes('load'))) faults.push('late-start');
      const caller = fleet.get(ev.c.by).replica;
      const { state } = await ctx.setPaused(ctx.world.writer, ctx.keys, ev.c.paused, (s) => caller.applyLocal(s));
      for (const r of ctx.replicas) {
        if (prev.subscribed[r] && !(await fleet.arrived(r, state, ctx.deliveryWaitMs))) notes.push(`the event ${show(state)} did not reach ${r} within ${ctx.deliveryWaitMs} ms`);
      }
      return { notes, faults };
    }
    case 'FailSetPaused': {
      if (ctx.step % 2 === 0) return failByKill(ev.c, label, ctx);
      const caller = fleet.get(ev.c.by).replica;
      const err = await ctx
        .setPaused(ctx.world.failing, ctx.keys, ev.c.paused, (s) => caller.applyLocal(s))
        .then(
          () => null,
          (e: unknown) => e,
        );
      if (err === null) notes.push(`${label}: the write meant to fail (no INCR allowed) committed`);
      // The failing user lacks INCR alone: its NOPERM for INCR is the refusal this step asks for (an INCR
      // sent outside a MULTI meets it as NOPERM, inside one as EXECABORT), not a broken setup.
      else if (refusedIncr(err)) faults.push('failed-write');
      else if (asInfrastructureFault(err)) throw err;
      else faults.push('failed-write');
      return { notes, faults };
    }
    case 'Deliver':
    case 'Drop': {
      const m = fleet.get(ev.r);
      const msg = await fleet.take(ev.r, ev.e, ctx.deliveryWaitMs);
      if (!msg) {
        notes.push(`${label}: ${ev.r} never received ${show(ev.e)} (waited ${ctx.deliveryWaitMs} ms)`);
        return { notes, faults, taken: null };
      }
      if (msg.step < ctx.step - 1) faults.push('delayed');
      // Taken out of arrival order: an older message to this replica is still held.
      if (m.held.some((h) => h.state.version < msg.state.version)) faults.push('reordered');
      if (ev.type === 'Drop') {
        m.dropped.push(msg.state);
        faults.push('dropped');
      } else msg.apply();
      return { notes, faults, taken: msg.state };
    }
    case 'Reconcile':
      await fleet.get(ev.r).replica.reconcileNow();
      return { notes, faults, synced: ev.r };
    case 'Tick':
      await sleep(ctx.tickMs);
      return { notes, faults };
    case 'Read':
      return { notes, faults };
  }
}

/** How long a message published by a write that should have failed gets to arrive before the check. */
const STRAY_EVENT_WAIT_MS = 10;

/**
 * FailSetPaused by a killed connection on a paused node. The rejection the kill causes (the
 * connection closed under the write) is this step's expected failure; any other fault still throws.
 * Then Valkey is read: the keys unchanged, no new message at any subscriber.
 */
async function failByKill(c: PendingCall, label: string, ctx: StepContext): Promise<StepOutcome> {
  const { fleet, keys, world } = ctx;
  const notes: string[] = [];
  const caller = fleet.get(c.by).replica;
  const read = async () => {
    const [paused, version] = await world.writer.mget(keys.paused, keys.version);
    return decodeStored(paused ?? null, version ?? null);
  };
  const before = await read();
  const heard = new Map(fleet.all().map((m) => [m, m.received.length] as const));
  const owner = world.ownerOf(keys.version);
  const { error, killed } = await killedWrite({
    admin: owner.client,
    endpoint: owner.node,
    order: world.killOrder,
    write: (conn) => ctx.setPaused(conn, keys, c.paused, (s) => caller.applyLocal(s)),
  });
  const fault = error === null ? null : asInfrastructureFault(error);
  const closed = fault?.kind === 'connection-lost' || (error instanceof Error && error.name === 'AbortError');
  if (error === null) notes.push(`${label}: the write meant to fail (its connection killed on a paused node) succeeded`);
  else if (!(killed && closed) && fault) throw fault;
  const stray = () => [...heard].filter(([m, n]) => m.received.length > n);
  await fleet.signal.until(() => stray().length > 0, STRAY_EVENT_WAIT_MS);
  for (const [m, n] of stray()) notes.push(`${label}: ${m.name} received ${m.received.slice(n).map(show).join(', ')} though the write's connection was killed`);
  const after = await read();
  if (after.version !== before.version || after.paused !== before.paused) notes.push(`${label}: Valkey holds ${show(after)} after the killed write (was ${show(before)})`);
  return { notes, faults: killed ? ['killed-write'] : [] };
}

/** Valkey's NOPERM for INCR: the fault user's one missing permission. */
function refusedIncr(err: unknown): boolean {
  return err instanceof Error && /^NOPERM\b.*'incr'/i.test(err.message);
}
