/**
 * SetPaused: persist the flag and increment the version in one MULTI/EXEC,
 * then publish {paused, version}; the caller updates its own snapshot only after both. A write that
 * fails (an error in EXEC, a lost connection, a timeout) publishes nothing: the error is thrown and
 * the local snapshot is left alone. A timed-out EXEC may still have run: the reconciler finds it.
 */
import type { ValkeyClient } from '../../valkey/index.js';
import { encodeEvent, type PauseKeys, type PauseState } from './keys.js';

export class PauseWriteError extends Error {
  override readonly name = 'PauseWriteError';
}

export interface SetPausedResult {
  readonly state: PauseState;
  /** The event is best effort: a failed PUBLISH after a committed write is repaired by reconciliation. */
  readonly published: boolean;
}

/**
 * `local` is the caller's own snapshot update (PauseReplica.applyLocal), called only after the write
 * committed and the publish was attempted.
 */
export async function setPaused(client: ValkeyClient, keys: PauseKeys, paused: boolean, local?: (state: PauseState) => void): Promise<SetPausedResult> {
  const tx = client.multi();
  if (paused) tx.set(keys.paused, '1');
  else tx.del(keys.paused);
  tx.incr(keys.version);
  // The new version as text (a GET in the same transaction): the client parses INCR's integer reply
  // into a double that is wrong near 2^53 (2^53 − 1 comes back as 2^53), the text is exact.
  tx.get(keys.version);
  const replies = await tx.exec();
  if (!replies) throw new PauseWriteError('SetPaused: the transaction was aborted');
  const failed = replies.find(([err]) => err);
  if (failed) throw new PauseWriteError(`SetPaused: ${(failed[0] as Error).message}`);
  const version = Number(replies[2]![1]);
  const state: PauseState = Object.freeze({ paused, version });
  const published = await client.publish(keys.channel, encodeEvent(state)).then(
    () => true,
    () => false,
  );
  local?.(state);
  return { state, published };
}
