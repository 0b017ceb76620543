import { readFileSync, readlinkSync } from 'node:fs';
import { isRunning, processIds, processStart, processUid, sameProcessAlive } from './process-table.js';

/**
 * The mark a harness-owned child process carries from its first instruction: an environment
 * variable naming its owner (PID and start time) and the harness root it belongs to. It is set at
 * exec, inherited by the child's own children, and readable in /proc/PID/environ by our uid alone,
 * so any kind of process (a valkey-server, a prometheus, a pod) can carry it, and a reaper can find
 * what a dead owner left from the process table, with or without a record. Nothing without the mark
 * is ever taken for ours.
 */
export const OWNER_MARK_ENV = 'FENCECHECK_OWNED_BY';

export interface OwnerMark {
  readonly ownerPid: number;
  /** The owner's start time (/proc/PID/stat field 22): a reused owner PID is not taken for the owner. */
  readonly ownerStart: string | undefined;
  /** The harness root (a registry root) the process belongs to: reapers of other roots leave it alone. */
  readonly root: string;
}

function formatMark(m: OwnerMark): string {
  return `${m.ownerPid}:${m.ownerStart ?? ''}:${m.root}`;
}

export function parseMark(value: string): OwnerMark | undefined {
  const m = /^(\d+):(\d*):(\/.*)$/.exec(value);
  if (!m) return undefined;
  const ownerPid = Number(m[1]);
  if (!Number.isSafeInteger(ownerPid) || ownerPid <= 0) return undefined;
  return { ownerPid, ownerStart: m[2] === '' ? undefined : m[2], root: m[3]! };
}

/** The environment for a child this process owns under `root`: `base` plus the mark. */
export function markedEnv(root: string, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...base, [OWNER_MARK_ENV]: formatMark({ ownerPid: process.pid, ownerStart: processStart(process.pid), root }) };
}

/** The mark `pid` carries, read from /proc/PID/environ; undefined when it has none (or is not ours to read). */
export function readMark(pid: number): OwnerMark | undefined {
  try {
    const me = process.getuid?.();
    if (me !== undefined && processUid(pid) !== me) return undefined;
    const prefix = `${OWNER_MARK_ENV}=`;
    const entry = readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .find((e) => e.startsWith(prefix));
    return entry === undefined ? undefined : parseMark(entry.slice(prefix.length));
  } catch {
    return undefined;
  }
}

/** Whether `pid` runs and carries the mark of `root`. */
export function carriesMark(pid: number, root: string): boolean {
  return readMark(pid)?.root === root && isRunning(pid);
}

export interface MarkedOrphan {
  readonly pid: number;
  readonly mark: OwnerMark;
  /** Its working folder when it was found (undefined when unreadable). */
  readonly cwd: string | undefined;
  /** Its command line, for the report. */
  readonly command: string;
}

/**
 * Every running process of our uid that carries the mark of `root` and whose owner is dead: what a
 * SIGKILLed owner left, recorded or not. This process itself is never one.
 */
export function markedOrphans(root: string): MarkedOrphan[] {
  const out: MarkedOrphan[] = [];
  for (const pid of processIds()) {
    if (pid === process.pid) continue;
    const mark = readMark(pid);
    if (mark === undefined || mark.root !== root || !isRunning(pid)) continue;
    if (sameProcessAlive(mark.ownerPid, mark.ownerStart)) continue;
    let cwd: string | undefined;
    let command = '';
    try {
      cwd = readlinkSync(`/proc/${pid}/cwd`);
      command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    } catch {
      /* gone meanwhile, or unreadable: still an orphan of ours */
    }
    out.push({ pid, mark, cwd, command });
  }
  return out;
}

/** SIGKILLs every orphan of `root` (marked, owner dead), checked again just before; returns those killed. */
export function killMarkedOrphans(root: string): MarkedOrphan[] {
  const killed: MarkedOrphan[] = [];
  for (const o of markedOrphans(root)) {
    // Checked again right before the kill: the PID must still carry this very mark.
    const now = readMark(o.pid);
    if (now === undefined || formatMark(now) !== formatMark(o.mark)) continue;
    try {
      process.kill(o.pid, 'SIGKILL');
      killed.push(o);
    } catch {
      /* gone already */
    }
  }
  return killed;
}
