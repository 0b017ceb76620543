/**
 * Reads the gate's keyspace observations from a real Valkey: every fencing session found by SCAN
 * (or the sessions named), the live-lease census of both keyspaces (counted by the census script),
 * both counters of each session, and the pre-G3 CLUSTER KEYSLOT check on a real tagged pair.
 * Read-only: nothing here writes (SCAN, GET, TYPE, PING, EVALSHA of the census script and of the
 * GET-only counters script; EVAL of their source only when a node answers NOSCRIPT).
 */
import { Cluster } from 'ioredis';
import type { ValkeyClient } from '../../../valkey/index.js';
import { evalScript, isServerReply, luaScript, type LuaScript } from '../../../valkey/scripts/index.js';
import { sessionKeys, type SessionRef } from '../keys.js';
import { decodeCounter } from '../encoding.js';
import type { FencingScripts } from '../scripts.js';
import { keySlot } from '../../../valkey/slots.js';
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
  // A cluster client knows its primaries only once the slot map is loaded: before, nodes() is empty.
  if (conn instanceof Cluster && conn.status !== 'ready') await conn.ping();
  const nodes = conn instanceof Cluster ? conn.nodes('master') : [conn];
  const perNode = await Promise.all(
    nodes.map(async (node) => {
      const keys: string[] = [];
      let cursor = '0';
      do {
        const [next, batch] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 5000);
        for (const k of batch) keys.push(k);
        cursor = next;
      } while (cursor !== '0');
      return keys;
    }),
  );
  return perNode.flat();
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

/**
 * A key of the fencing keyspace holds something the gate cannot read as what it must be: a lease
 * key that is not a string (WRONGTYPE) or not `<owner>:<generation>`, a counter that is not a
 * decimal integer. Bad input (exit 3), never a refusal: the gate cannot decide on such a keyspace.
 */
export class KeyspaceValueError extends Error {
  override readonly name = 'KeyspaceValueError';
  constructor(
    readonly key: string,
    readonly problem: string,
  ) {
    super(`key '${key}' ${problem}`);
  }
}

/** Keys per multi-key read (all in one slot): a census call over lease keys, a GET-script over counters. */
export const OBSERVE_KEYS_PER_CALL = 200;
/** Multi-key reads per pipeline, per node. */
export const OBSERVE_CALLS_PER_PIPELINE = 200;

/**
 * GET of every declared key, in order (false for a missing key). Read-only. A key of another type
 * fails the script with WRONGTYPE, exactly as its own GET would (MGET would answer nil instead).
 */
const COUNTERS_SCRIPT = luaScript('gate/counters', "local out = {}\nfor i = 1, #KEYS do out[i] = redis.call('GET', KEYS[i]) end\nreturn out\n");

type Read = { readonly op: 'census' | 'get'; readonly key: string };

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

const REDIRECT = /^(MOVED|ASK|TRYAGAIN|CLUSTERDOWN|LOADING|CROSSSLOT)\b/;

/** TYPE of a key (read-only), for the message; undefined when it cannot be asked. */
async function typeOf(conn: ValkeyClient, key: string): Promise<string | undefined> {
  try {
    return String(await conn.type(key));
  } catch {
    return undefined;
  }
}

/** A server error about the value of the key read becomes KeyspaceValueError; anything else stays as it is. */
async function valueError(conn: ValkeyClient, r: Read, err: unknown): Promise<unknown> {
  if (!isServerReply(err)) return err;
  const msg = message(err);
  const what = r.op === 'census' ? 'a lease' : 'a generation counter';
  if (/WRONGTYPE/.test(msg)) {
    const t = await typeOf(conn, r.key);
    return new KeyspaceValueError(r.key, `holds ${t ? `a ${t}` : 'another type'}, not ${what} (a string): WRONGTYPE`);
  }
  if (/FENCE_BADVALUE/.test(msg)) return new KeyspaceValueError(r.key, `is not ${what} ('<owner>:<generation>')`);
  return err;
}

/** One read alone through the client (it follows MOVED/ASK; EVALSHA falls back to EVAL on NOSCRIPT). */
async function readOne(conn: ValkeyClient, scripts: FencingScripts, r: Read): Promise<unknown> {
  try {
    return r.op === 'census' ? await evalScript(conn, scripts.get('ops/census'), [r.key], []) : await conn.get(r.key);
  } catch (err) {
    throw await valueError(conn, r, err);
  }
}

function counter(key: string, v: unknown): number {
  try {
    return decodeCounter(v === false || v === undefined ? null : (v as string | null));
  } catch {
    throw new KeyspaceValueError(key, `is not a generation counter (a decimal integer): ${JSON.stringify(v).slice(0, 60)}`);
  }
}

function census(key: string, v: unknown): number {
  if (typeof v !== 'number') throw new KeyspaceValueError(key, `census reply is not an integer: ${JSON.stringify(v)}`);
  return v;
}

/** One multi-key read: keys of one slot. `census` adds to a keyspace's count; `counters` fills positions. */
interface Call {
  readonly op: 'census' | 'counters';
  readonly keyspace: 'old' | 'new';
  readonly keys: string[];
  /** counters: where each key's value goes (2 × session index, + 1 for the new counter). */
  readonly at: number[];
}

/**
 * Census and counters of these sessions. One session (the step driver's case) is read command by
 * command: a single-key census call per lease key and a GET per counter. More are grouped by slot
 * (every key of a call shares one slot, so a call is legal on every topology) and read with the
 * census script over up to OBSERVE_KEYS_PER_CALL lease keys of one keyspace, and a GET script over
 * as many counters, pipelined per node (on a Cluster, the primary that owns the slot). Read-only.
 * A call that meets a redirect (a slot moving), or an error about a value, is read again key by
 * key through the client, which follows redirects and names the key. Throws KeyspaceValueError
 * naming a key that holds the wrong type or a malformed value.
 */
export async function observeKeyspace(conn: ValkeyClient, scripts: FencingScripts, sessions: readonly SessionRef[]): Promise<KeyspaceObservations> {
  let oldLeaseCensus = 0;
  let newLeaseCensus = 0;
  const counters: CounterObservation[] = [];
  if (sessions.length === 1) {
    const s = sessions[0]!;
    const k = sessionKeys(s);
    const one = async (r: Read) => readOne(conn, scripts, r);
    oldLeaseCensus += census(k.oldLease, await one({ op: 'census', key: k.oldLease }));
    newLeaseCensus += census(k.newLease, await one({ op: 'census', key: k.newLease }));
    counters.push({ session: `${s.community}:${s.session}`, oldGen: counter(k.oldGen, await one({ op: 'get', key: k.oldGen })), newGen: counter(k.newGen, await one({ op: 'get', key: k.newGen })) });
    return { sessions, oldLeaseCensus, newLeaseCensus, counters };
  }
  if (sessions.length === 0) return { sessions, oldLeaseCensus, newLeaseCensus, counters };
  const cluster = conn instanceof Cluster ? conn : undefined;
  if (cluster && cluster.status !== 'ready') await cluster.ping(); // the slot map is loaded once ready
  const prefix = cluster ? (cluster.options.keyPrefix ?? '') : '';
  const slotOf = cluster ? (key: string) => keySlot(prefix + key) : () => 0;

  // Group every key by slot: [old leases, new leases, counters, counter positions].
  const bySlot = new Map<number, [string[], string[], string[], number[]]>();
  const group = (slot: number) => {
    let g = bySlot.get(slot);
    if (!g) bySlot.set(slot, (g = [[], [], [], []]));
    return g;
  };
  sessions.forEach((s, i) => {
    const k = sessionKeys(s);
    group(slotOf(k.oldLease))[0].push(k.oldLease);
    const tagged = group(slotOf(k.newLease)); // newLease and newGen share the tag
    tagged[1].push(k.newLease);
    tagged[2].push(k.newGen);
    tagged[3].push(2 * i + 1);
    const old = group(slotOf(k.oldGen));
    old[2].push(k.oldGen);
    old[3].push(2 * i);
  });
  const gens = new Array<unknown>(2 * sessions.length);
  // Calls per owning node.
  const byNode = new Map<string, Call[]>();
  const slotMap = cluster ? (cluster.slots as unknown as readonly (readonly string[] | undefined)[]) : [];
  for (const [slot, [olds, news, genKeys, genAt]] of bySlot) {
    const owner = cluster ? (slotMap[slot]?.[0] ?? '') : 'node';
    let list = byNode.get(owner);
    if (!list) byNode.set(owner, (list = []));
    for (let j = 0; j < olds.length; j += OBSERVE_KEYS_PER_CALL) list.push({ op: 'census', keyspace: 'old', keys: olds.slice(j, j + OBSERVE_KEYS_PER_CALL), at: [] });
    for (let j = 0; j < news.length; j += OBSERVE_KEYS_PER_CALL) list.push({ op: 'census', keyspace: 'new', keys: news.slice(j, j + OBSERVE_KEYS_PER_CALL), at: [] });
    for (let j = 0; j < genKeys.length; j += OBSERVE_KEYS_PER_CALL)
      list.push({ op: 'counters', keyspace: 'old', keys: genKeys.slice(j, j + OBSERVE_KEYS_PER_CALL), at: genAt.slice(j, j + OBSERVE_KEYS_PER_CALL) });
  }
  bySlot.clear();

  const scriptOf = (c: Call): LuaScript => (c.op === 'census' ? scripts.get('ops/census') : COUNTERS_SCRIPT);
  const take = (c: Call, reply: unknown) => {
    if (c.op === 'census') {
      const n = census(c.keys[0]!, reply);
      if (c.keyspace === 'old') oldLeaseCensus += n;
      else newLeaseCensus += n;
      return;
    }
    if (!Array.isArray(reply) || reply.length !== c.keys.length) throw new KeyspaceValueError(c.keys[0]!, `counter read answered ${JSON.stringify(reply).slice(0, 60)}`);
    c.at.forEach((pos, j) => (gens[pos] = reply[j] ?? null));
  };
  /** The call's keys one by one through the client: follows redirects, names a bad key. */
  const keyByKey = async (c: Call) => {
    for (let j = 0; j < c.keys.length; j++) {
      const v = await readOne(conn, scripts, { op: c.op === 'census' ? 'census' : 'get', key: c.keys[j]! });
      if (c.op === 'census') {
        if (c.keyspace === 'old') oldLeaseCensus += census(c.keys[j]!, v);
        else newLeaseCensus += census(c.keys[j]!, v);
      } else gens[c.at[j]!] = v;
    }
  };
  /** Alone through the client (EVALSHA, EVAL on NOSCRIPT); falls back to key by key. */
  const alone = async (c: Call) => {
    let reply: unknown;
    try {
      reply = await evalScript(conn, scriptOf(c), c.keys, []);
    } catch (err) {
      if (!isServerReply(err)) throw err;
      return keyByKey(c);
    }
    take(c, reply);
  };
  await Promise.all(
    [...byNode.entries()].map(async ([owner, calls]) => {
      if (owner === '') {
        for (const c of calls) await alone(c); // slot owner not known: the client routes each call
        return;
      }
      for (let j = 0; j < calls.length; j += OBSERVE_CALLS_PER_PIPELINE) {
        const chunk = calls.slice(j, j + OBSERVE_CALLS_PER_PIPELINE);
        const p = conn.pipeline();
        for (const c of chunk) p.evalsha(scriptOf(c).sha1, c.keys.length, ...c.keys);
        const replies = ((await p.exec()) ?? []) as [unknown, unknown][];
        const noscript: Call[] = [];
        for (let n = 0; n < chunk.length; n++) {
          const c = chunk[n]!;
          const [err, value] = replies[n] ?? [new Error('no reply in the pipeline'), null];
          if (!err) take(c, value);
          else if (/^NOSCRIPT/.test(message(err))) noscript.push(c);
          else if (isServerReply(err) || REDIRECT.test(message(err))) await keyByKey(c);
          else throw err;
        }
        // NOSCRIPT: the script did not run. The first alone loads it (EVAL); the others follow at once
        // (One first per script: each node caches each script on its first EVAL.)
        const firsts = [...new Map(noscript.map((c) => [c.op, c] as const)).values()];
        for (const c of firsts) await alone(c);
        await Promise.all(noscript.filter((c) => !firsts.includes(c)).map(alone));
      }
    }),
  );
  sessions.forEach((s, i) => {
    const k = sessionKeys(s);
    counters.push({ session: `${s.community}:${s.session}`, oldGen: counter(k.oldGen, gens[2 * i]), newGen: counter(k.newGen, gens[2 * i + 1]) });
  });
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
