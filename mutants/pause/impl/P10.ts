// P10 (hand-written): SetPaused writes the version and the flag as two commands, INCR first, then
// SET/DEL, with no transaction. While both land it is right (the walks' writes always do); when the
// SET is refused after the INCR landed, a version exists that no event announces: a ready replica
// misses it until it reconciles. Only a fault at the command level (the tour's FailLaterWrite)
// makes a write other than the first fail.
import { encodeEvent, PauseWriteError, type PausePatch, type SetPausedFn } from '../../../src/systems/pause/index.js';

const twoWrites: SetPausedFn = async (client, keys, paused, local) => {
  const version = await client.incr(keys.version);
  try {
    if (paused) await client.set(keys.paused, '1');
    else await client.del(keys.paused);
  } catch (err) {
    throw new PauseWriteError(`SetPaused: ${(err as Error).message}`);
  }
  const state = Object.freeze({ paused, version });
  const published = await client.publish(keys.channel, encodeEvent(state)).then(
    () => true,
    () => false,
  );
  local?.(state);
  return { state, published };
};

const patch: PausePatch = { description: 'SetPaused writes INCR and SET as two commands, not one MULTI/EXEC', setPaused: twoWrites };
export default patch;
