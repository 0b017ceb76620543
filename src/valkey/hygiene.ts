import { killRecordedSync, type ServerRecord } from './registry.js';

/**
 * The servers THIS process started and has not stopped yet. On exit, SIGINT, SIGTERM, SIGHUP and an
 * uncaught exception they are SIGKILLed synchronously (an exit handler cannot wait), by PID.
 */
const live = new Map<number, ServerRecord>();
let installed = false;

export function trackServer(rec: ServerRecord): void {
  installHandlers();
  live.set(rec.pid, rec);
}

export function untrackServer(pid: number): void {
  live.delete(pid);
}

/** Kills every server this process still owns. Safe to call more than once. */
export function killAllOwnedSync(): void {
  for (const rec of live.values()) killRecordedSync(rec);
  live.clear();
}

function installHandlers(): void {
  if (installed) return;
  installed = true;
  process.on('exit', killAllOwnedSync);
  // Monitor, not handler: observing the crash must not swallow it. When someone handles uncaught
  // exceptions (vitest does), the process lives on and its topologies must too; 'exit' covers the end.
  process.on('uncaughtExceptionMonitor', () => {
    if (process.listenerCount('uncaughtException') === 0) killAllOwnedSync();
  });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = () => {
      killAllOwnedSync();
      // If nobody else handles the signal, keep its default meaning: terminate.
      if (process.listenerCount(sig) === 1) {
        process.removeListener(sig, onSignal);
        process.kill(process.pid, sig);
      }
    };
    process.on(sig, onSignal);
  }
}
