import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { markedEnv } from './owner-mark.js';
import { endingSignal, onProcessEnd } from './process-end.js';
import { waitGoneSync } from './process-table.js';

/**
 * The child processes THIS process started and has not stopped yet — valkey-servers, a prometheus,
 * pods: any harness-owned child. On exit, SIGINT, SIGTERM, SIGHUP and an uncaught exception they
 * are SIGKILLed synchronously (an exit handler cannot wait) through the process's end hooks
 * (src/core/process-end.ts): on every such signal, whoever else handles it, and a signal that ends
 * the process waits briefly for them to be reaped.
 *
 * A child is killed through its handle, never after a look at /proc: the look fails for a child
 * spawned a moment ago (not yet exec'd, or not yet in its folder), and a kill that waited for it
 * left the child running while its record and folder were dropped. What it leaves (a record, a
 * folder: `afterGone`) is dropped only once it is seen gone (a zombie of ours: its PID cannot be
 * reused until we reap it); one not seen gone in time keeps them, for the next reaper.
 */
export interface OwnChild {
  /** ChildProcess.kill: does nothing once the child was reaped (its PID may then be another's). */
  kill(signal: NodeJS.Signals): boolean;
  /** Set once the child was reaped (ChildProcess). */
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
}

export interface TrackedChild {
  readonly pid: number;
  readonly child: OwnChild;
  /** Its reaping (the 'exit' event): what a signal's end waits for. */
  readonly exited?: Promise<unknown>;
  /** Drops what names it (a record, its folder), once it is seen gone. */
  readonly afterGone?: () => void;
}

const live = new Map<number, TrackedChild>();
let hooked = false;
/** Set by markStopping (the cleanup tests' fixtures); otherwise a signal ending the process says so. */
let markedStopping = false;
/** The reaping of children killed because they were started while stopping. */
const lateExits: Promise<unknown>[] = [];
/** How long one pass waits, synchronously, for the children it killed to be gone (within a signal's 2 s budget). */
const GONE_WAIT_MS = 300;

/**
 * From now on every child this process starts is killed as soon as it is tracked, as when a signal
 * is ending the process (exported for the cleanup tests' fixtures).
 */
export function markStopping(): void {
  markedStopping = true;
}

/**
 * A signal arrived and the process is ending: the code still running in the meantime (a row that
 * saw its servers die moves on to the next topology) must not leave new children behind.
 */
const stopping = (): boolean => markedStopping || endingSignal() !== undefined;

export function trackChild(t: TrackedChild): void {
  if (!hooked) {
    hooked = true;
    onProcessEnd({ when: 'any-signal', release: () => [...killAllOwnedSync(), ...lateExits.splice(0)] });
  }
  if (stopping()) {
    // Spawned after the signal: killed at once, never handed to a caller that is being stopped;
    // the signal's end waits for it to be reaped too.
    killSync([t]);
    if (t.exited) lateExits.push(t.exited);
    return;
  }
  live.set(t.pid, t);
}

export function untrackChild(pid: number): void {
  live.delete(pid);
}

/** SIGKILLs each through its handle; runs afterGone for those seen gone. */
function killSync(ts: readonly TrackedChild[]): void {
  for (const t of ts) t.child.kill('SIGKILL');
  const reaped = (t: TrackedChild) => t.child.exitCode !== null || t.child.signalCode !== null;
  // Not reaped yet: still our zombie at worst, so its PID is its own and /proc can tell when it is gone.
  const gone = new Set(
    waitGoneSync(
      ts.filter((t) => !reaped(t)).map((t) => t.pid),
      GONE_WAIT_MS,
    ),
  );
  const drop = (t: TrackedChild) => {
    try {
      t.afterGone?.();
    } catch {
      // One child's cleanup must not keep the others from theirs.
    }
  };
  for (const t of ts) {
    if (reaped(t) || gone.has(t.pid)) drop(t);
    // Not gone yet (a loaded machine): dropped once reaped, when that comes while a signal's end
    // still waits for it (src/core/process-end.ts); otherwise kept for the next reaper.
    else void t.exited?.then(() => drop(t));
  }
}

/** Kills every child this process still owns. Safe to call more than once. Returns their reaping. */
export function killAllOwnedSync(): Promise<unknown>[] {
  const ts = [...live.values()];
  live.clear();
  killSync(ts);
  return ts.flatMap((t) => (t.exited ? [t.exited] : []));
}

/**
 * Spawns a harness-owned child under the harness root `root`: it carries the owner mark
 * (src/core/owner-mark.ts) from its first instruction, is killed when this process ends, and is
 * untracked once it exits. For a prometheus, a pod, any helper process; a reaper of `root` finds
 * it from the process table if this process dies by SIGKILL.
 */
export function spawnOwned(root: string, command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { ...options, env: markedEnv(root, options.env ?? process.env) });
  const pid = child.pid;
  if (pid === undefined) return child; // it failed to spawn: its 'error' event says why
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  trackChild({ pid, child, exited });
  void exited.then(() => untrackChild(pid));
  return child;
}
