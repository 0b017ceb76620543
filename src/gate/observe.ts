/**
 * Reads the gate's keyspace observations from a real Valkey: every fencing session found by SCAN
 * (or the sessions named), the live-lease census of both keyspaces (counted by the census script),
 * both counters of each session, and the pre-G3 CLUSTER KEYSLOT check on a real tagged pair.
 * Read-only: nothing here writes.
 */
import { Cluster } from 'ioredis';
import type { ValkeyClient } from '../valkey/index.js';
import { evalScript } from '../scripts/index.js';
import { sessionKeys, type SessionRef } from '../fencing/keys.js';
import { decodeCounter } from '../fencing/encoding.js';
import type { FencingScripts } from '../fencing/scripts.js';
import { int } from '../fencing/clients/replies.js';
import type { CounterObservation, KeyslotCheck } from './observations.js';

const OLD_LEASE = /^buzz:(.+):tunnel:(.+):lease$/;
const NEW_LEASE = /^buzz:tunnel:\{(.+):([^:}]+)\}:lease$/;

/** `community:session` → SessionRef (the session is the part after the last ':'). */
export function parseSession(text: string): SessionRef {
  const i = text.lastIndexOf(':');
  if (i <= 0 || i === text.length - 1) throw new RangeError(`a session is <community>:<session>, got '${text}'`);
  return { community: text.slice(0, i), session: text.slice(i + 1) };
}

async function scanAll(conn: ValkeyClient, pattern: string): Promise<string[]> {
  const nodes = conn instanceof Cluster ? conn.nodes('master') : [conn];
  const out: string[] = [];
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      out.push(...keys);
      cursor = next;
    } while (cursor !== '0');
  }
  return out;
}

/** Every session with a lease or counter key in either keyspace. */
export async function discoverSessions(conn: ValkeyClient): Promise<SessionRef[]> {
  const found = new Map<string, SessionRef>();
  const add = (community: string, session: string) => found.set(`${community}:${session}`, { community, session });
  for (const k of await scanAll(conn, 'buzz:*:tunnel:*:*')) {
    const m = OLD_LEASE.exec(k.replace(/:generation$/, ':lease'));
    if (m) add(m[1]!, m[2]!);
  }
  for (const k of await scanAll(conn, 'buzz:tunnel:{*}:*')) {
    const m = NEW_LEASE.exec(k.replace(/:generation$/, ':lease'));
    if (m) add(m[1]!, m[2]!);
  }
  return [...found.values()];
}

export interface KeyspaceObservations {
  readonly sessions: readonly SessionRef[];
  readonly oldLeaseCensus: number;
  readonly newLeaseCensus: number;
  readonly counters: readonly CounterObservation[];
}

/** Census and counters of these sessions; one single-key census call per lease key (legal on every topology). */
export async function observeKeyspace(conn: ValkeyClient, scripts: FencingScripts, sessions: readonly SessionRef[]): Promise<KeyspaceObservations> {
  let oldLeaseCensus = 0;
  let newLeaseCensus = 0;
  const counters: CounterObservation[] = [];
  const census = async (key: string) => int(await evalScript(conn, scripts.get('ops/census'), [key], []), 'ops/census');
  for (const s of sessions) {
    const k = sessionKeys(s);
    oldLeaseCensus += await census(k.oldLease);
    newLeaseCensus += await census(k.newLease);
    counters.push({ session: `${s.community}:${s.session}`, oldGen: decodeCounter(await conn.get(k.oldGen)), newGen: decodeCounter(await conn.get(k.newGen)) });
  }
  return { sessions, oldLeaseCensus, newLeaseCensus, counters };
}

/** CLUSTER KEYSLOT of both members of a tagged pair, asked of a cluster-enabled node. */
export async function keyslotCheck(clusterNode: ValkeyClient, session: SessionRef): Promise<KeyslotCheck> {
  const k = sessionKeys(session);
  const slot = async (key: string) => Number(await clusterNode.call('CLUSTER', 'KEYSLOT', key));
  return { keys: [k.newLease, k.newGen], slots: [await slot(k.newLease), await slot(k.newGen)] };
}

/** Whether this node runs with cluster-enabled yes. */
export async function clusterEnabled(conn: ValkeyClient): Promise<boolean> {
  if (conn instanceof Cluster) return true;
  return /cluster_enabled:1/.test(await conn.info('cluster'));
}
