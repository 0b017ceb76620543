/**
 * The failover remedy (tla/fencing/failover/, axiom R1): a script's reply is trusted only after
 * `WAIT <replicas> <timeoutMs>` on the same node connection confirms the replica holds every write
 * that connection made. EVALSHA and WAIT go in one pipeline: ioredis routes a Cluster pipeline by
 * its keyed commands' slot, so the keyless WAIT reaches the node that ran the script, right after it.
 * A WAIT short of the count, or failed, is ReplicaUnconfirmedError — an OutcomeUnknownError: the
 * script may have run and its effect may vanish in a failover, so its reply (a generation) is never
 * handed to the caller.
 */
import { Cluster, ReplyError } from 'ioredis';
import { OutcomeUnknownError } from '../errors.js';
import type { ValkeyClient } from '../types.js';
import { isNoScript, isServerReply, LOCAL_REFUSAL } from './eval.js';
import type { LuaScript } from './script.js';

export interface ConfirmOptions {
  /** Replicas that must hold the write (1: the shard's only replica, axiom R1). */
  readonly replicas: number;
  /** WAIT's own timeout (ms); keep it below FENCECHECK_COMMAND_TIMEOUT_MS. */
  readonly timeoutMs: number;
}

/** The script ran (or may have) on the primary, but no replica was confirmed to hold it. */
export class ReplicaUnconfirmedError extends OutcomeUnknownError {
  /** OutcomeUnknownError's name is kept (classifyFault and callers treat it as one); this tells it apart. */
  readonly unconfirmed = true;
  constructor(
    message: string,
    /** WAIT's answer (replicas confirmed), or null when WAIT itself failed. */
    readonly confirmed: number | null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

type PipelineResult = [Error | null, unknown][] | null;

function send(client: ValkeyClient, first: ['evalsha' | 'eval', string], keys: readonly string[], args: readonly (string | number)[], o: ConfirmOptions): Promise<PipelineResult> {
  const p = client.pipeline();
  p[first[0]](first[1], keys.length, ...keys, ...args);
  p.call('WAIT', String(o.replicas), String(o.timeoutMs));
  return p.exec() as Promise<PipelineResult>;
}

/** A Cluster pipeline follows a redirection only when every other command is read-only; WAIT is not: follow it here. */
const REDIRECTED = /^(MOVED|TRYAGAIN|CLUSTERDOWN)\b/;
const MAX_REDIRECTIONS = 16;
const REDIRECT_DELAY_MS = 50;

function refreshed(client: ValkeyClient): Promise<void> {
  if (!(client instanceof Cluster)) return Promise.resolve();
  return new Promise((resolve) => client.refreshSlotsCache(() => resolve()));
}

/** evalScript's contract (EVALSHA, EVAL on NOSCRIPT, never re-sent), plus the replica confirmation. */
export async function evalConfirmed(client: ValkeyClient, script: LuaScript, keys: readonly string[], args: readonly (string | number)[], o: ConfirmOptions): Promise<unknown> {
  if (client.status === 'end') throw new Error(`script ${script.name}: the client is closed; nothing was sent`);
  const unknown = (why: string, cause?: unknown) => new OutcomeUnknownError(`script ${script.name}: ${why}; it may have run, and was not re-sent`, cause === undefined ? undefined : { cause });
  let res: PipelineResult;
  try {
    let first: ['evalsha' | 'eval', string] = ['evalsha', script.sha1];
    for (let redirections = 0; ; redirections++) {
      res = await send(client, first, keys, args, o);
      const err = res?.[0]?.[0];
      // NOSCRIPT: the script did not run (WAIT then confirmed nothing of it); EVAL is no re-send.
      if (isNoScript(err) && first[0] === 'evalsha') first = ['eval', script.source];
      // MOVED / TRYAGAIN / CLUSTERDOWN: not executed; the slot map is refreshed and the pair sent again.
      else if (err instanceof ReplyError && REDIRECTED.test((err as Error).message) && redirections < MAX_REDIRECTIONS) {
        await refreshed(client);
        // MOVED names the new owner at once; TRYAGAIN and CLUSTERDOWN need the cluster to settle.
        if (!/^MOVED/.test((err as Error).message)) await new Promise((r) => setTimeout(r, REDIRECT_DELAY_MS));
      } else break;
    }
  } catch (err) {
    // The pipeline as a whole failed: a server-like refusal (the locality guard's CROSSSLOT), a local
    // refusal (nothing sent), or the connection (unknown).
    if (isServerReply(err)) throw err;
    if (err instanceof Error && (LOCAL_REFUSAL.test(err.message) || /^All (the )?keys in the pipeline/.test(err.message))) throw err;
    throw unknown(`the pipeline failed before its replies arrived (${err instanceof Error ? err.message : String(err)})`, err);
  }
  const [scriptRes, waitRes] = res ?? [];
  if (!scriptRes || !waitRes) throw unknown('no reply');
  const [scriptErr, raw] = scriptRes;
  if (scriptErr) {
    // A server answer (a script error, a redirection left unfollowed): its outcome is known, as in evalScript.
    if (isServerReply(scriptErr)) throw scriptErr;
    throw unknown(`the connection failed before the reply arrived (${scriptErr.message})`, scriptErr);
  }
  const [waitErr, n] = waitRes;
  if (waitErr)
    throw new ReplicaUnconfirmedError(`script ${script.name}: it ran on the primary, but WAIT failed (${waitErr.message.split('\n')[0]}); its effect may not survive a failover`, null, {
      cause: waitErr,
    });
  const confirmed = Number(n);
  if (!(confirmed >= o.replicas)) {
    throw new ReplicaUnconfirmedError(
      `script ${script.name}: it ran on the primary, but WAIT confirmed ${confirmed} of ${o.replicas} replica(s) within ${o.timeoutMs} ms; its effect may not survive a failover`,
      confirmed,
    );
  }
  return raw;
}
