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
      // If nobody else handles the signal, keep its default meaning: terminate. signal-exit's exit
      // hooks do not count as handling it: they too wait to be the sole listeners, so with both of us
      // listening nobody would end the process (issue 16: every command on the default provider,
      // whose container probe loads them, swallowed Ctrl-C). Once we are gone they are the sole
      // listeners of the re-raised signal: they run their hooks and re-raise it in turn.
      if (process.listenerCount(sig) - signalExitListeners() === 1) {
        process.removeListener(sig, onSignal);
        process.kill(process.pid, sig);
      }
    };
    process.on(sig, onSignal);
  }
}

/**
 * How many listeners of each signal belong to signal-exit (v3 keeps its count on
 * `process.__signal_exit_emitter__`, v4 on `process[Symbol.for('signal-exit emitter')]`; each loaded
 * copy adds one listener per signal). testcontainers depends on both versions.
 */
function signalExitListeners(): number {
  const p = process as unknown as Record<string | symbol, unknown>;
  const count = (e: unknown): number => {
    const c = typeof e === 'object' && e !== null ? (e as { count?: unknown }).count : undefined;
    return typeof c === 'number' && c > 0 ? c : 0;
  };
  return count(p.__signal_exit_emitter__) + count(p[Symbol.for('signal-exit emitter')]);
}
