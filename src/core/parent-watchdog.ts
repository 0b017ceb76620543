import { readFileSync } from 'node:fs';

/**
 * A fencecheck child process's guard against outliving the fencecheck that started it (verify's
 * stages, the impl layer's workers). When that parent is gone (SIGKILLed, crashed: this process was
 * reparented), this process sends SIGTERM to its own process group when it leads one (itself and
 * whatever it started there), else to itself, so its servers are killed by its end hooks
 * (src/core/owned-children.ts), and SIGKILL a few seconds later if anything is still there. The
 * timer is unref'd: it never keeps a process alive. A process busy in a long synchronous
 * computation notices only when it next yields to the event loop.
 */
const INTERVAL_MS = 500;
const KILL_AFTER_MS = 3_000;

/** Set by a parent for the fencecheck children that must stop when it is gone (its PID). */
export const PARENT_PID_ENV = 'FENCECHECK_PARENT_PID';

/** The environment entry that makes a fencecheck child watch this process. */
export const watchMeEnv = (): Record<string, string> => ({ [PARENT_PID_ENV]: String(process.pid) });

/** Checks every `intervalMs` that `parentPid` is still this process's parent; once not, stops this process (see above). */
export function stopWhenParentGone(parentPid: number, what: string, intervalMs = INTERVAL_MS): NodeJS.Timeout {
  const timer = setInterval(() => {
    if (process.ppid === parentPid && alive(parentPid)) return;
    clearInterval(timer);
    process.stderr.write(`fencecheck: ${what} (pid ${parentPid}) is gone: stopping\n`);
    const target = leadsGroup() ? -process.pid : process.pid;
    setTimeout(() => signal(target, 'SIGKILL'), KILL_AFTER_MS).unref();
    signal(target, 'SIGTERM');
  }, intervalMs);
  timer.unref();
  return timer;
}

/**
 * Takes the PID an environment variable names (and removes the variable, so this process's own
 * children do not watch a process that is not their parent); undefined unless it names our parent.
 */
export function takeParentPid(name: string, env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env[name];
  if (raw === undefined) return undefined;
  delete env[name];
  const pid = Number(raw);
  return Number.isInteger(pid) && pid > 1 && process.ppid === pid ? pid : undefined;
}

/** Starts the watch when this process's parent asked for it (PARENT_PID_ENV); otherwise does nothing. */
export function watchParent(env: NodeJS.ProcessEnv = process.env, intervalMs = INTERVAL_MS): NodeJS.Timeout | undefined {
  const pid = takeParentPid(PARENT_PID_ENV, env);
  return pid === undefined ? undefined : stopWhenParentGone(pid, 'the fencecheck that started this process', intervalMs);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function signal(target: number, sig: NodeJS.Signals): void {
  try {
    process.kill(target, sig);
  } catch {
    // Already gone.
  }
}

/** Whether this process leads its process group (Linux /proc; elsewhere assume not: signal only itself). */
function leadsGroup(): boolean {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === process.pid;
  } catch {
    return false;
  }
}
