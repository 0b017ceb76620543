import { readdirSync, readFileSync, readlinkSync, realpathSync, statSync } from 'node:fs';

/**
 * What the process table (Linux /proc) says about a process: alive, running (not a zombie), its
 * start time. Elsewhere only `kill(pid, 0)` answers, and nothing can be verified.
 */

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Fields of /proc/PID/stat after the command name (field 3 onwards), or undefined when it is gone. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** Start time of a process in clock ticks since boot (Linux), or undefined elsewhere. */
export function processStart(pid: number): string | undefined {
  return statFields(pid)?.[19];
}

/** Whether `pid` runs: exists and is not a zombie waiting for its reaper (Linux /proc; else kill 0). */
export function isRunning(pid: number): boolean {
  const f = statFields(pid);
  if (f === undefined) return process.platform !== 'linux' && isAlive(pid);
  return f[0] !== 'Z';
}

/**
 * Whether a process that was `pid` started at `start` still runs (same PID and same start time). A
 * zombie does not: an owner SIGKILLed after its own parent died waits for init to reap it (here,
 * a PID 1 that may never), and its servers are orphans all that time.
 */
export function sameProcessAlive(pid: number, start: string | undefined): boolean {
  if (!isAlive(pid) || !isRunning(pid)) return false;
  if (start === undefined) return true;
  const now = processStart(pid);
  return now === undefined || now === start;
}

/** The PIDs of the process table (Linux); empty elsewhere. */
export function processIds(): number[] {
  try {
    return readdirSync('/proc')
      .filter((n) => /^\d+$/.test(n))
      .map(Number);
  } catch {
    return [];
  }
}

/** The uid owning `pid`, undefined when it is gone. */
export function processUid(pid: number): number | undefined {
  try {
    return statSync(`/proc/${pid}`).uid;
  } catch {
    return undefined;
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Waits, synchronously (an exit hook cannot await), up to `ms` until none of `pids` runs; returns
 * the ones seen gone. Meant for children of this process just sent SIGKILL: they stay zombies (not
 * running, their PID not reusable) until we reap them, so "seen gone" is certain.
 */
export function waitGoneSync(pids: readonly number[], ms: number): number[] {
  const deadline = Date.now() + ms;
  let left = pids.filter(isRunning);
  while (left.length > 0 && Date.now() < deadline) {
    Atomics.wait(pause, 0, 0, 2);
    left = left.filter(isRunning);
  }
  return pids.filter((p) => !left.includes(p));
}

/** The running processes whose working folder is `dir` or lies under it (Linux /proc; empty elsewhere). */
export function processesWorkingUnder(dir: string): number[] {
  let real: string;
  try {
    real = realpathSync(dir);
  } catch {
    return [];
  }
  return processIds().filter((pid) => {
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      return (cwd === real || cwd.startsWith(`${real}/`)) && isRunning(pid);
    } catch {
      return false;
    }
  });
}
