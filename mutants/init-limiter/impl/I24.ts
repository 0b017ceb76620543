// I24 Deadline_ReachesSocket: the writer wrapper of one surface only hides the socket — the FDv2
// stream's (a duration/metrics recorder wrapped around /sdk/stream alone, without Unwrap), while
// /all and the polls keep theirs. The FDv1 and poll checks see deadlines cut stalled clients; an FDv2
// client that stops reading holds its slot forever (seed: "statusRecorder ... and
// loggingHTTPResponseWriter ... did not [implement Unwrap] ... the deadline protection was a no-op").
import { LoggingWriter } from '../../../src/systems/init-limiter/server/response.js';
import type { InitLimiterPatch, ResponseWriter } from '../../../src/systems/init-limiter/server/index.js';

class HidingLoggingWriter extends LoggingWriter {
  override unwrap(): ResponseWriter | null {
    return null;
  }
}

const patch: InitLimiterPatch = {
  system: 'init-limiter',
  description: "the FDv2 stream's writer wrapper hides the socket from the write deadline",
  parts: {
    Deadline_ReachesSocket: (inner, log, req) => ((req.url ?? '').startsWith('/sdk/stream') ? new HidingLoggingWriter(inner, log, req) : new LoggingWriter(inner, log, req)),
  },
};
export default patch;
