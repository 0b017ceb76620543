import { endingSignal, onProcessEnd } from '../core/process-end.js';
import { waitGoneSync } from '../core/process-table.js';
import { forgetServer, removeNodeDir, type ServerRecord } from './registry.js';

/**
 * The servers THIS process started and has not stopped yet. On exit, SIGINT, SIGTERM, SIGHUP and an
 * uncaught exception they are SIGKILLed synchronously (an exit handler cannot wait), through the
 * process's end hooks (src/core/process-end.ts): on every such signal, whoever else handles it,
 * and a signal that ends the process waits briefly for them to be reaped.
 *
 * A server of ours is killed through its child handle, never after a look at /proc: the look fails
 * for a server spawned a moment ago (not yet in its --dir), and a kill that waited for it left the
 * server running while its record and folder were dropped. Its record and folder are dropped only
 * once it is seen gone (a zombie of ours: its PID cannot be reused until we reap it); one not seen
 * gone in time keeps its record, for the next reaper.
 */
export interface OwnChild {
  /** ChildProcess.kill: does nothing once the child was reaped (its PID may then be another's). */
  kill(signal: NodeJS.Signals): boolean;
  /** Set once the child was reaped (ChildProcess). */
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
}

interface Tracked {
  readonly rec: ServerRecord;
  readonly child: OwnChild;
  readonly exited: Promise<unknown> | undefined;
}

const live = new Map<number, Tracked>();
let hooked = false;
/** Set by markStopping (the cleanup test's fixture); otherwise a signal ending the process says so. */
let markedStopping = false;
/** The reaping of servers killed because they were started while stopping. */
const lateExits: Promise<unknown>[] = [];
/** How long one pass waits, synchronously, for the servers it killed to be gone (within the 2 s budget of a signal). */
const GONE_WAIT_MS = 300;

/**
 * From now on every server this process starts is killed as soon as it is tracked, as when a signal
 * is ending the process (exported for the cleanup test's fixture).
 */
export function markStopping(): void {
  markedStopping = true;
}

/**
 * A signal arrived and the process is ending: the code still running in the meantime (a row that
 * saw its servers die moves on to the next topology) must not leave new servers behind.
 */
const stopping = (): boolean => markedStopping || endingSignal() !== undefined;

export function trackServer(rec: ServerRecord, child: OwnChild, exited?: Promise<unknown>): void {
  if (!hooked) {
    hooked = true;
    onProcessEnd({ when: 'any-signal', release: () => [...killAllOwnedSync(), ...lateExits.splice(0)] });
  }
  const t: Tracked = { rec, child, exited };
  if (stopping()) {
    // Spawned after the signal: killed at once, never handed to a caller that is being stopped;
    // the signal's end waits for it to be reaped too.
    killSync([t]);
    if (exited) lateExits.push(exited);
    return;
  }
  live.set(rec.pid, t);
}

export function untrackServer(pid: number): void {
  live.delete(pid);
}

/** SIGKILLs each through its handle; drops the record and folder of those seen gone. */
function killSync(ts: readonly Tracked[]): void {
  for (const t of ts) t.child.kill('SIGKILL');
  const reaped = (t: Tracked) => t.child.exitCode !== null || t.child.signalCode !== null;
  // Not reaped yet: still our zombie at worst, so its PID is its own and /proc can tell when it is gone.
  const gone = new Set(
    waitGoneSync(
      ts.filter((t) => !reaped(t)).map((t) => t.rec.pid),
      GONE_WAIT_MS,
    ),
  );
  for (const t of ts) {
    if (!reaped(t) && !gone.has(t.rec.pid)) continue;
    forgetServer(t.rec.pid);
    removeNodeDir(t.rec.dir);
  }
}

/** Kills every server this process still owns. Safe to call more than once. Returns their reaping. */
export function killAllOwnedSync(): Promise<unknown>[] {
  const ts = [...live.values()];
  live.clear();
  killSync(ts);
  return ts.flatMap((t) => (t.exited ? [t.exited] : []));
}
