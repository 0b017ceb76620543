/** The init-limiter's clients: real sockets against any base URL speaking the same endpoints and metrics. */
export { StreamClient, type StreamOpenOptions, type CloseInfo } from './stream-client.js';
export { KeptAliveConnection, pollOnce, type PollReply } from './poll-client.js';
export { readMetrics, parseMetrics, type MetricsSample } from './metrics-reader.js';
export { ControlClient, ControlError, type PointState } from './control-client.js';
export { REAL_PACER, manualPacer, type Pacer } from './pacer.js';
export { herd, type HerdOutcome } from './herd.js';
export { stallAbsorptionBound, stallPayloadBytes } from './kernel-buffers.js';
export { viewOf, missingVersions, SseParser, type SseEvent, type StreamView } from './sse.js';
export { DriveInputError, endpointOf } from './http-wire.js';
export { CHECKS, runCheck, type Check, type CheckOutcome, type CheckStatus } from './checks.js';
export { checkOnReferenceServer } from './reference.js';
