export { pauseKeys, encodeEvent, decodeEvent, decodeStored, type PauseKeys, type PauseState } from './keys.js';
export { setPaused, PauseWriteError, type SetPausedResult } from './set-paused.js';
export { PauseReplica, type PauseAnswer, type PauseReplicaOptions, type PauseReplicaStatus, type Delivery, type StartGate, type StartPhase, type Held } from './replica.js';
export { isPausePatch, loadPausePatch, patched, REAL_PAUSE, type PausePatch, type SetPausedFn } from './patch.js';
