// A small bug (Deadline_ReachesSocket): the request logger rewrites a shed reply's Retry-After to 0 (its
// jitter drawn from zero). A herd of shed clients then retries at once, the thundering herd the
// budget exists to spread (seed: a 503 with a jittered Retry-After of at least a second).
import { LoggingWriter, type Headers } from '../../../src/systems/init-limiter/server/response.js';
import type { InitLimiterPatch } from '../../../src/systems/init-limiter/server/index.js';

class ZeroRetryLoggingWriter extends LoggingWriter {
  override writeHead(status: number, headers: Headers): void {
    super.writeHead(status, status === 503 ? { ...headers, 'retry-after': 0 } : headers);
  }
}

const patch: InitLimiterPatch = {
  system: 'init-limiter',
  description: "a shed reply's Retry-After of 0",
  parts: { Deadline_ReachesSocket: (inner, log, req) => new ZeroRetryLoggingWriter(inner, log, req) },
};
export default patch;
