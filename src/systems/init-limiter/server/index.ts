/** The init-limiter reference server: start/stop, options, patches, hold points. */
export { startInitLimiterServer, type InitLimiterServer } from './server.js';
export { InitLimiterOptionsError, DEFAULT_LIMITS, type InitLimiterServerOptions, type LimiterOptions, type TestSeamsOptions } from './options.js';
export { PART_NAMES, REAL_PARTS, PatchError, validatePatch, loadInitLimiterPatch, type InitLimiterParts, type InitLimiterPatch, type PartName } from './parts.js';
export { HOLD_POINTS, COUNT_ONLY_POINTS, isHoldPoint, type HoldPoint, type PointState } from './seams.js';
export { SURFACES, type Surface, type Slot, type ReleaseReason } from './limiter.js';
export { SURFACE_COUNTERS } from './metrics.js';
export type { Log, LogLevel, ResponseWriter } from './response.js';
