/**
 * One reference server in its own process, for the init-limiter bench's memory figures (RSS of the
 * server alone, not of the bench's clients): options as JSON in argv[2], the URL on stdout's first
 * line; stops when stdin closes or at SIGTERM. Started with --expose-gc, it collects every 200 ms so
 * its RSS follows what is live.
 */
import { startInitLimiterServer, type InitLimiterServerOptions } from '../../src/systems/init-limiter/server/index.js';

const options = JSON.parse(process.argv[2] ?? '{}') as InitLimiterServerOptions;
const server = await startInitLimiterServer(options);
const collect = (globalThis as { gc?: () => void }).gc;
const timer = collect ? setInterval(collect, 200) : null;
process.stdout.write(`${server.url}\n`);
const stop = async () => {
  if (timer) clearInterval(timer);
  await server.stop();
  process.exit(0);
};
process.stdin.on('end', () => void stop());
process.stdin.resume();
process.on('SIGTERM', () => void stop());
