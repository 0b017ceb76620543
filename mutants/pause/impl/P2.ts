// P2 SetPaused_PublishAfterWrite: SetPaused announces the version it expects, publishes it and
// updates the caller's snapshot, and only then runs MULTI/EXEC.
import { encodeEvent, PauseWriteError, type PausePatch, type SetPausedFn } from '../../../src/systems/pause/index.js';

const publishFirst: SetPausedFn = async (client, keys, paused, local) => {
  const state = Object.freeze({ paused, version: Number((await client.get(keys.version)) ?? 0) + 1 });
  const published = await client.publish(keys.channel, encodeEvent(state)).then(
    () => true,
    () => false,
  );
  local?.(state);
  const tx = client.multi();
  if (paused) tx.set(keys.paused, '1');
  else tx.del(keys.paused);
  tx.incr(keys.version);
  const replies = await tx.exec();
  if (!replies || replies.some(([err]) => err)) throw new PauseWriteError('SetPaused: the transaction failed');
  return { state, published };
};

const patch: PausePatch = { description: 'publish and local update before MULTI/EXEC', setPaused: publishFirst };
export default patch;
