import { createServer } from 'node:net';

/** A loopback TCP port that was free a moment ago (the OS picks it; callers retry on EADDRINUSE). */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => (port > 0 ? resolve(port) : reject(new Error('no free loopback port'))));
    });
  });
}
