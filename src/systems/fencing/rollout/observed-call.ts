/**
 * One step of the rehearsal, observed: a fencing script (or none, for a controller's mark) run in a
 * MULTI/EXEC with a read of the session's keys, their PTTLs, the server's clock and a per-session
 * sequence number. EXEC runs it all at once, and the server neither runs another client's command
 * nor expires a key inside it, so the read is the keyspace exactly as the script left it, and the
 * sequence orders every step of one session as the server executed them — the observed trace's
 * order (trace.ts), not the order the controller happened to hear of them.
 */
import type { ValkeyClient } from '../../../valkey/index.js';
import type { LuaScript } from '../../../valkey/scripts/index.js';
import { sessionKeys, type SessionRef } from '../keys.js';

/** The session's keys as the step left them, read in the step's own transaction. */
export interface KeyspaceSeen {
  /** The session's step counter after this step (1 for its first). */
  readonly seq: number;
  /** The server's clock (TIME) at the step, in ms. */
  readonly atMs: number;
  /** Raw values (`owner:gen`, a counter), null for a missing key. */
  readonly oldLease: string | null;
  readonly newLease: string | null;
  readonly oldGen: string | null;
  readonly newGen: string | null;
  /** PTTL of each lease key (-2: missing). */
  readonly oldTtlMs: number;
  readonly newTtlMs: number;
  /** After the cluster door only the session's slot is read (the old keys live in other slots): the old pair unobserved. */
  readonly oldUnread?: true;
}

/** The step counter of a session: in the session's hash tag, so it lives in the new keys' slot. */
export function stepCounterKey(s: SessionRef): string {
  return `fencecheck:rehearsal:{${s.community}:${s.session}}:steps`;
}

export interface ObservedCall {
  /** The script's reply; undefined for a mark (no script). */
  readonly reply: unknown;
  /** The script's error (a server error reply), if it failed. */
  readonly error?: string;
  readonly seen: KeyspaceSeen;
}

/**
 * Runs `script` (when given) on the session's `keys` and reads the session back in one
 * transaction. The script goes as EVAL (no NOSCRIPT inside a transaction). Throws when EXEC
 * itself fails (the connection, a discarded transaction): nothing was observed.
 */
export async function callObserved(
  conn: ValkeyClient,
  s: SessionRef,
  script: { readonly script: LuaScript; readonly keys: readonly string[]; readonly args: readonly (string | number)[] } | null,
  slotOnly = false,
): Promise<ObservedCall> {
  const k = sessionKeys(s);
  let m = conn.multi();
  if (script) m = m.eval(script.script.source, script.keys.length, ...script.keys, ...script.args);
  // After the door one transaction may touch one slot: the new pair and the counter (the session's hash tag).
  const [ol, og] = slotOnly ? [k.newLease, k.newGen] : [k.oldLease, k.oldGen];
  m = m.mget(ol, k.newLease, og, k.newGen).pttl(ol).pttl(k.newLease).incr(stepCounterKey(s)).time();
  const res = await m.exec();
  if (!res) throw new Error(`the observed step on ${s.community}:${s.session} was discarded`);
  const at = script ? 1 : 0;
  const part = (i: number) => {
    const [err, v] = res[at + i]!;
    if (err) throw err;
    return v;
  };
  const [oldLease, newLease, oldGen, newGen] = part(0) as (string | null)[];
  const [sec, usec] = part(4) as [string, string];
  const seen: KeyspaceSeen = {
    seq: Number(part(3)),
    atMs: Number(sec) * 1000 + Number(usec) / 1000,
    oldLease: oldLease ?? null,
    newLease: newLease ?? null,
    oldGen: oldGen ?? null,
    newGen: newGen ?? null,
    oldTtlMs: Number(part(1)),
    newTtlMs: Number(part(2)),
    ...(slotOnly && { oldLease: null, oldGen: null, oldTtlMs: -2, oldUnread: true as const }),
  };
  if (!script) return { reply: undefined, seen };
  const [err, reply] = res[0]!;
  return err ? { reply: undefined, error: err.message, seen } : { reply, seen };
}
