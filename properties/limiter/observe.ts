/**
 * Reading and writing bucket keys on the real server, for the properties: what a key holds (type,
 * every hash field, absolute expiry), the state the model expects it to hold, server time, and how
 * many script executions a node has run.
 */
import type { ValkeyClient } from '../../src/valkey/index.js';
import type { Stored } from '../../models/limiter/index.js';

/** What a key holds on the server; `expireAt` is PEXPIRETIME (-1 none). */
export type Observed =
  | { readonly type: 'none' }
  | { readonly type: 'hash'; readonly fields: Readonly<Record<string, string>>; readonly expireAt: number }
  | { readonly type: 'other'; readonly redisType: string };

/** The hash a corrupt bucket holds (fields that are not the limiter's integers). */
export const CORRUPT_FIELDS: Readonly<Record<string, string>> = { tokens: 'many', ts: 'yesterday' };

export async function observe(client: ValkeyClient, key: string): Promise<Observed> {
  const replies = await client.pipeline().type(key).hgetall(key).call('PEXPIRETIME', key).exec();
  if (replies === null) throw new Error(`observe ${key}: pipeline discarded`);
  const [typeR, fieldsR, expR] = replies;
  const type = String(typeR![1]);
  if (type === 'none') return { type: 'none' };
  if (type !== 'hash') return { type: 'other', redisType: type };
  const raw = fieldsR![1] as Record<string, string>;
  const fields: Record<string, string> = {};
  for (const k of Object.keys(raw).sort()) fields[k] = raw[k]!;
  return { type: 'hash', fields, expireAt: Number(expR![1]) };
}

/** The observation a model state corresponds to. A wrong-type key is a string key. */
export function expected(stored: Stored): Observed {
  switch (stored.kind) {
    case 'absent':
      return { type: 'none' };
    case 'wrongtype':
      return { type: 'other', redisType: 'string' };
    case 'corrupt':
      return { type: 'hash', fields: CORRUPT_FIELDS, expireAt: -1 };
    case 'bucket':
      return { type: 'hash', fields: { tokens: String(stored.tokens), ts: String(stored.ts) }, expireAt: stored.expireAt };
  }
}

export function sameObservation(a: Observed, b: Observed): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Puts a key into a model state (setup of a generated case). */
export async function writeStored(client: ValkeyClient, key: string, stored: Stored): Promise<void> {
  await client.del(key);
  if (stored.kind === 'wrongtype') await client.set(key, 'not-a-bucket');
  if (stored.kind === 'corrupt') await client.hset(key, CORRUPT_FIELDS);
  if (stored.kind === 'bucket') {
    await client.hset(key, { tokens: String(stored.tokens), ts: String(stored.ts) });
    await client.pexpireat(key, stored.expireAt);
  }
}

/**
 * Ages a real bucket by `deltaMs` the way the model's advance() does, from what the server holds:
 * ts and expiry move back; a bucket whose expiry falls at or before `horizon` is deleted.
 */
export async function ageOnServer(client: ValkeyClient, key: string, deltaMs: number, horizon: number): Promise<void> {
  const o = await observe(client, key);
  if (o.type !== 'hash' || o.expireAt < 0) return;
  const ts = Number(o.fields.ts);
  if (!Number.isInteger(ts)) return;
  const expireAt = o.expireAt - deltaMs;
  if (expireAt <= horizon) {
    await client.del(key);
    return;
  }
  await client.hset(key, 'ts', String(ts - deltaMs));
  await client.pexpireat(key, expireAt);
}

/** Valkey TIME in ms (floor), as the script computes it. */
export async function serverTimeMs(client: ValkeyClient): Promise<number> {
  const [sec, usec] = (await client.call('TIME')) as [string, string];
  return Number(sec) * 1000 + Math.floor(Number(usec) / 1000);
}

/** INFO commandstats of one node: calls and failed calls per command (lower case). */
async function commandStats(client: ValkeyClient): Promise<Map<string, { calls: number; failed: number }>> {
  const info = String(await client.call('INFO', 'commandstats'));
  const stats = new Map<string, { calls: number; failed: number }>();
  for (const m of info.matchAll(/^cmdstat_([^:]+):calls=(\d+),.*failed_calls=(\d+)/gm)) stats.set(m[1]!, { calls: Number(m[2]), failed: Number(m[3]) });
  return stats;
}

/**
 * Script executions a standalone node has run: EVAL + EVALSHA calls that did not fail (a NOSCRIPT
 * EVALSHA counts as failed). From INFO commandstats, so a re-sent script is counted by the server.
 */
export async function scriptExecutions(client: ValkeyClient): Promise<number> {
  const stats = await commandStats(client);
  let n = 0;
  for (const cmd of ['eval', 'evalsha']) n += (stats.get(cmd)?.calls ?? 0) - (stats.get(cmd)?.failed ?? 0);
  return n;
}

/** Script executions summed over nodes (one client per primary). */
export async function totalScriptExecutions(nodes: readonly ValkeyClient[]): Promise<number> {
  let n = 0;
  for (const c of nodes) n += await scriptExecutions(c);
  return n;
}

/** EVAL calls (the NOSCRIPT fallback), failed or not, summed over nodes. */
export async function evalCalls(nodes: readonly ValkeyClient[]): Promise<number> {
  let n = 0;
  for (const c of nodes) n += (await commandStats(c)).get('eval')?.calls ?? 0;
  return n;
}
