// I12 Deadline_ReachesSocket: the request logger's writer does not unwrap, so the response controller
// cannot reach the connection; setting the write deadline silently fails ("not supported") and a
// stalled client is never cut (seed: statusRecorder and loggingHTTPResponseWriter without Unwrap).
import { LoggingWriter } from '../../../src/systems/init-limiter/server/response.js';
import type { InitLimiterPatch, ResponseWriter } from '../../../src/systems/init-limiter/server/index.js';

class HidingLoggingWriter extends LoggingWriter {
  override unwrap(): ResponseWriter | null {
    return null;
  }
}

const patch: InitLimiterPatch = {
  system: 'init-limiter',
  description: 'the logging writer hides the socket from the write deadline',
  parts: { Deadline_ReachesSocket: (inner, log, req) => new HidingLoggingWriter(inner, log, req) },
};
export default patch;
