import { endingSignal, onProcessEnd } from '../core/process-end.js';
import { killRecordedSync, type ServerRecord } from './registry.js';

/**
 * The servers THIS process started and has not stopped yet. On exit, SIGINT, SIGTERM, SIGHUP and an
 * uncaught exception they are SIGKILLed synchronously (an exit handler cannot wait), by PID, through
 * the process's end hooks (src/core/process-end.ts): on every such signal, whoever else handles it,
 * and a signal that ends the process waits briefly for them to be reaped.
 */
const live = new Map<number, ServerRecord>();
/** When each server this process spawned has exited and been reaped (its child 'exit' event). */
const reaped = new Map<number, Promise<unknown>>();
let hooked = false;
/** Set by markStopping (the cleanup test's fixture); otherwise a signal ending the process says so. */
let markedStopping = false;
/** The reaping of servers killed because they were started while stopping. */
const lateExits: Promise<unknown>[] = [];

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

export function trackServer(rec: ServerRecord, exited?: Promise<unknown>): void {
  if (!hooked) {
    hooked = true;
    onProcessEnd({ when: 'any-signal', release: () => [...killAllOwnedSync(), ...lateExits.splice(0)] });
  }
  if (stopping()) {
    // Spawned after the signal: killed at once, never handed to a caller that is being stopped;
    // the signal's end waits for it to be reaped too.
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
