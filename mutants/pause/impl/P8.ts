// P8 (hand-written): SetPaused takes the new version from a GET made before MULTI (+1) instead of
// INCR's reply. Alone it is right; two calls that overlap (both GET before either EXEC) announce
// the same version with different values. The walks run each call whole; the tour holds calls before EXEC.
import { encodeEvent, PauseWriteError, type PausePatch, type SetPausedFn } from '../../../src/systems/pause/index.js';

const versionReadFirst: SetPausedFn = async (client, keys, paused, local) => {
  const before = Number((await client.get(keys.version)) ?? 0);
  const tx = client.multi();
  if (paused) tx.set(keys.paused, '1');
  else tx.del(keys.paused);
  tx.incr(keys.version);
  const replies = await tx.exec();
  if (!replies) throw new PauseWriteError('SetPaused: the transaction was aborted');
  const failed = replies.find(([err]) => err);
  if (failed) throw new PauseWriteError(`SetPaused: ${(failed[0] as Error).message}`);
  const state = Object.freeze({ paused, version: before + 1 }); // not replies[1]
  const published = await client.publish(keys.channel, encodeEvent(state)).then(
    () => true,
    () => false,
  );
  local?.(state);
  return { state, published };
};

const patch: PausePatch = { description: "the version announced is read before MULTI, not INCR's reply", setPaused: versionReadFirst };
export default patch;
