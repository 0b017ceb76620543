// The pause snapshot's model-driven run on real Valkey (the twin walks, the real system answers).
export { openDriveWorld, type DriveWorld } from './world.js';
export { runPauseDrive, replayCommand, DRIVE_DEFAULTS, type DriveOptions, type DriveResult, type DriveFailure } from './run.js';
export { REAL_INVARIANTS, type RealInvariant, type Violation } from './checkers.js';
export { FAULT_KINDS, type FaultKind } from './execute.js';
export { twinTotals, coverageOf, type Coverage } from './coverage.js';
export type { WalkResult } from './walk.js';
export { killThenUnpause, type KillOrder } from './killed-write.js';
