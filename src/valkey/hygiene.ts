import { killRecordedSync, type ServerRecord } from './registry.js';

/**
 * The servers THIS process started and has not stopped yet. On exit, SIGINT, SIGTERM, SIGHUP and an
 * uncaught exception they are SIGKILLed synchronously (an exit handler cannot wait), by PID.
 */
const live = new Map<number, ServerRecord>();
/** When each server this process spawned has exited and been reaped (its child 'exit' event). */
const reaped = new Map<number, Promise<unknown>>();
let installed = false;
/**
 * A signal arrived and the process is ending: the code still running in the meantime (a row that
 * saw its servers die moves on to the next topology) must not leave new servers behind.
 */
let stopping = false;
/** The reaping of servers killed because they were started while stopping. */
const lateExits: Promise<unknown>[] = [];

/** How long a signal waits for the killed servers to be reaped before the process ends. */
const REAP_WAIT_MS = 500;

/**
 * From now on every server this process starts is killed as soon as it is tracked. The signal
 * handler calls it when the signal will end the process (exported for the cleanup test's fixture).
 */
export function markStopping(): void {
  stopping = true;
}

export function trackServer(rec: ServerRecord, exited?: Promise<unknown>): void {
  installHandlers();
  if (stopping) {
    // Spawned after the signal: killed at once, never handed to a caller that is being stopped;
    // the signal's re-raise waits for it to be reaped too.
    killRecordedSync(rec);
    if (exited) lateExits.push(exited);
    return;
  }
  live.set(rec.pid, rec);
  if (exited) reaped.set(rec.pid, exited);
}

export function untrackServer(pid: number): void {
  live.delete(pid);
  reaped.delete(pid);
}

/** Kills every server this process still owns. Safe to call more than once. Returns their reaping. */
export function killAllOwnedSync(): Promise<unknown>[] {
  const exits: Promise<unknown>[] = [];
  for (const rec of live.values()) {
    killRecordedSync(rec);
    const e = reaped.get(rec.pid);
    if (e) exits.push(e);
  }
  live.clear();
  reaped.clear();
  return exits;
}

function installHandlers(): void {
  if (installed) return;
  installed = true;
  process.on('exit', () => void killAllOwnedSync());
  // Monitor, not handler: observing the crash must not swallow it. When someone handles uncaught
  // exceptions (vitest does), the process lives on and its topologies must too; 'exit' covers the end.
  process.on('uncaughtExceptionMonitor', () => {
    if (process.listenerCount('uncaughtException') === 0) killAllOwnedSync();
  });
  let ending = false;
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = () => {
      // A repeated signal while we reap (verify stops a stage's group by more than one path) must
      // not end the process by its default action before the killed servers are reaped.
      if (ending) return;
      const exits = killAllOwnedSync();
      if (process.listenerCount(sig) - signalExitListeners() === 1) markStopping();
      // If nobody else handles the signal, keep its default meaning: terminate. signal-exit's exit
      // hooks do not count as handling it: they too wait to be the sole listeners, so with both of us
      // listening nobody would end the process (issue 16: every command on the default provider,
      // whose container probe loads them, swallowed Ctrl-C). Once we are gone they are the sole
      // listeners of the re-raised signal: they run their hooks and re-raise it in turn.
      if (process.listenerCount(sig) - signalExitListeners() === 1) {
        ending = true;
        // Reap the killed servers first (briefly): a parent that dies before reaping leaves them as
        // zombies for init to collect, and they still show in the process table for a second or two.
        const reap = (ps: Promise<unknown>[]) => Promise.race([Promise.all(ps), new Promise((r) => setTimeout(r, REAP_WAIT_MS))]);
        void (async () => {
          await reap(exits);
          // Whatever the code still running started meanwhile is killed (and reaped) as well.
          await reap([...killAllOwnedSync(), ...lateExits]);
          process.removeListener(sig, onSignal);
          process.kill(process.pid, sig);
        })();
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
