/**
 * What the pause tour observes beyond the model's state, for the observed digest and the TTL rule:
 * Valkey's two keys as they are stored (the raw text, the version relative to the instance's base,
 * each key's TTL class) and what every replica answers (its hot read, its age flag and the status
 * an operator reads: ready, the snapshot it holds, its counters). A patch that stores the same
 * state in other words, or answers a status differently, is then not "equivalent" to the real code.
 */
import type { Redis } from 'ioredis';
import type { TourCheckFailure } from '../../../seam/tour/system.js';
import type { PauseKeys } from '../keys.js';
import type { Replica } from '../model-state.js';
import type { PauseReplica } from '../replica.js';

/** A key's TTL class: absent, persistent, or expiring (PTTL > 0). */
export type TtlClass = 'none' | 'persistent' | 'expiring';

export interface StoredKey {
  /** The raw value (the version key's relative to the base when it is a number), null when absent. */
  readonly value: string | null;
  readonly ttl: TtlClass;
  readonly pttl: number;
}

export interface PauseKeyspace {
  readonly paused: StoredKey;
  readonly version: StoredKey;
}

/** A read-back's observation: the keyspace, and what the replicas answer as one line. */
export interface PauseObservation extends PauseKeyspace {
  readonly replicas: string;
}

const ttlClass = (pttl: number): TtlClass => (pttl === -2 ? 'none' : pttl === -1 ? 'persistent' : 'expiring');

/** Both keys' raw values and PTTLs in one round trip. */
export async function observeKeyspace(writer: Redis, keys: PauseKeys, base: number): Promise<PauseKeyspace> {
  const replies = (await writer.pipeline().get(keys.paused).get(keys.version).pttl(keys.paused).pttl(keys.version).exec()) ?? [];
  const at = (i: number): unknown => {
    const [err, v] = replies[i] ?? [new Error('no reply'), null];
    if (err) throw err;
    return v;
  };
  const paused = at(0) as string | null;
  const version = at(1) as string | null;
  const rel = version !== null && /^\d+$/.test(version) ? `+${BigInt(version) - BigInt(base)}` : version;
  const pp = Number(at(2));
  const pv = Number(at(3));
  return { paused: { value: paused, ttl: ttlClass(pp), pttl: pp }, version: { value: rel, ttl: ttlClass(pv), pttl: pv } };
}

/**
 * The TTL rule: the pause flag and its version never expire. A flag that expires turns a pause
 * into "running" with no new version and no event (replicas holding "paused" never learn of it);
 * a version that expires restarts at 0 and every replica ignores the next event as old.
 */
export function ttlFailure(o: PauseKeyspace): TourCheckFailure | null {
  for (const [name, k] of [
    ['paused', o.paused],
    ['version', o.version],
  ] as const)
    if (k.ttl === 'expiring') return { check: 'TTL', message: `the ${name} key has PTTL ${k.pttl}: the pause state must never expire` };
  return null;
}

const show = (k: StoredKey) => `${k.value ?? '-'}@${k.ttl}`;

/** A read-back as one line of the observed digest: the keyspace, then the replicas' answers. */
export function observedLine(o: PauseObservation): string {
  return `paused=${show(o.paused)} version=${show(o.version)}|${o.replicas}`;
}

/** What each replica answers (in the bounds' order): hot read, age flag, status; versions relative to the base. */
export function replicasLine(replicas: readonly { readonly name: Replica; readonly replica: PauseReplica }[], base: number): string {
  return replicas
    .map(({ name, replica }) => {
      const s = replica.status();
      const held = s.version === null ? 'none' : `${s.paused ? 'paused' : 'running'}@+${s.version - base}`;
      return `${name}: ${replica.read()} ${replica.pastAgeBound() ? 'stale' : 'fresh'} ${s.ready ? 'ready' : 'unready'} ${held} reconciles ${s.reconciles}/${s.reconcileFailures} events ${s.eventsApplied}/${s.eventsIgnored}`;
    })
    .join('; ');
}
