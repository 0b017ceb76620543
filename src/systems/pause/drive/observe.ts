/**
 * One look at the real system after a step: every replica's own answers (status() and the hot read,
 * taken together, synchronously), Valkey's pause keys (one MGET) and how many connections are really
 * subscribed to the walk's channel (PUBSUB NUMSUB on every node: subscriptions are node-local).
 */
import type { Replica } from '../model-state.js';
import { decodeStored, type PauseKeys, type PauseState } from '../keys.js';
import type { PauseAnswer, PauseReplicaStatus } from '../replica.js';
import type { Fleet } from './fleet.js';
import type { DriveWorld } from './world.js';

export interface ReplicaView {
  readonly status: PauseReplicaStatus;
  readonly answer: PauseAnswer;
  /** Every message its subscriber received so far. */
  readonly received: readonly PauseState[];
}

export interface RealView {
  /** performance.now() when the ages were taken, before the loop ran its timers (see `observe`). */
  readonly takenAt: number;
  /**
   * performance.now() when the answers were read, after those timers: the latest moment the ages
   * can refer to. A stall between the two (a loaded machine) can fire a stale timer after takenAt.
   */
  readonly readAt: number;
  readonly replicas: Readonly<Record<Replica, ReplicaView>>;
  readonly valkey: PauseState;
  readonly subscriptions: number;
}

const immediate = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The age bound is a flag a timer sets, so the answers are read only after the event loop has run a
 * timers phase that began after `takenAt`: the second setImmediate resumes in the check
 * phase of the next loop iteration, whose timers phase ran every timer due before it began. A
 * snapshot older than the bound by then has had its timer fire — a served answer is the replica's
 * own fault, not the loop's lateness.
 */
export async function observe(world: DriveWorld, fleet: Fleet, keys: PauseKeys): Promise<RealView> {
  const members = fleet.all();
  const takenAt = performance.now();
  await immediate();
  await immediate();
  const readAt = performance.now();
  const replicas = Object.fromEntries(members.map((m) => [m.name, { status: m.replica.status(), answer: m.replica.read(), received: [...m.received] }])) as Record<Replica, ReplicaView>;
  const [[paused, version], counts] = await Promise.all([
    world.writer.mget(keys.paused, keys.version),
    Promise.all(world.nodes.map((c) => c.call('PUBSUB', 'NUMSUB', keys.channel) as Promise<[string, number]>)),
  ]);
  return { takenAt, readAt, replicas, valkey: decodeStored(paused ?? null, version ?? null), subscriptions: counts.reduce((n, [, k]) => n + Number(k), 0) };
}
