export { pauseKeys, encodeEvent, decodeEvent, decodeStored, type PauseKeys, type PauseState } from './keys.js';
export { setPaused, PauseWriteError, type SetPausedResult } from './set-paused.js';
export { PauseReplica, type PauseAnswer, type PauseReplicaOptions, type PauseReplicaStatus, type Delivery } from './replica.js';
