import { ReplyError } from 'ioredis';
import { OutcomeUnknownError } from '../errors.js';
import type { ValkeyClient } from '../types.js';
import type { LuaScript } from './script.js';

/**
 * Runs a script: EVALSHA, and EVAL when the server answers NOSCRIPT (a node that restarted, failed
 * over or ran SCRIPT FLUSH). On a Cluster both go to the node that owns the keys' slot, so each node
 * loads the script on first use. NOSCRIPT means the script did not run, so EVAL is no re-send.
 *
 * Server errors (CROSSSLOT, script errors) are thrown as the ReplyError they are. Any other failure
 * after the command was handed to the client (connection dropped, closed, reset) may have happened
 * after the server ran the script: it becomes OutcomeUnknownError and is never retried.
 *
 * Concurrent calls on one connection are pipelined; a call that falls back to EVAL is then
 * executed after calls issued later. Await calls one by one when their order matters.
 */
export async function evalScript(client: ValkeyClient, script: LuaScript, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
  // A closed client sends nothing: that is a plain error, not an unknown outcome.
  if (client.status === 'end') throw new Error(`script ${script.name}: the client is closed; nothing was sent`);
  try {
    return await client.evalsha(script.sha1, keys.length, ...keys, ...args);
  } catch (err) {
    if (!isNoScript(err)) throw classify(err, script);
  }
  try {
    return await client.eval(script.source, keys.length, ...keys, ...args);
  } catch (err) {
    throw classify(err, script);
  }
}

/** NOSCRIPT: the script did not run (EVAL after it is no re-send). */
export function isNoScript(err: unknown): boolean {
  return err instanceof ReplyError && /^NOSCRIPT/.test((err as Error).message);
}

/** Whether the server answered (the command's effect is known from the reply). */
export function isServerReply(err: unknown): boolean {
  return err instanceof ReplyError;
}

/** The client refused before sending (nothing ran). */
export const LOCAL_REFUSAL = /^Too many Cluster redirections|^refused: /;

function classify(err: unknown, script: LuaScript): unknown {
  if (isServerReply(err)) return err;
  // Local refusals: nothing was sent.
  if (err instanceof Error && LOCAL_REFUSAL.test(err.message)) return err;
  const why = err instanceof Error ? err.message : String(err);
  return new OutcomeUnknownError(`script ${script.name}: the connection failed before the reply arrived (${why}); it may have run, and was not re-sent`, { cause: err });
}
