/** Starting a reference server for one test and always stopping it (also on failure). */
import { startInitLimiterServer, type InitLimiterServer, type InitLimiterServerOptions } from '../../src/systems/init-limiter/server/index.js';

export async function withServer<T>(options: InitLimiterServerOptions, fn: (s: InitLimiterServer) => Promise<T>): Promise<T> {
  const s = await startInitLimiterServer(options);
  try {
    return await fn(s);
  } finally {
    await s.stop();
  }
}
