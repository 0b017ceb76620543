/**
 * A stage's guard against outliving verify. verify starts each stage with FENCECHECK_VERIFY_PID set
 * to its own PID; the stage (src/cli/main.ts) calls watchVerifyParent(), which checks every
 * ~500 ms that verify is still its parent. When verify is gone (SIGKILLed, crashed: the stage was
 * reparented), the stage sends SIGTERM to its own process group — itself and whatever it started
 * there — so its servers are killed by the signal handler of src/valkey/hygiene.ts, and SIGKILL a
 * few seconds later if anything is still there. The timer is unref'd: it never keeps a stage alive.
 *
 * A stage busy in a long synchronous computation notices only when it next yields to the event loop.
 */
import { readFileSync } from 'node:fs';

export const VERIFY_PID_ENV = 'FENCECHECK_VERIFY_PID';

/** The last line a stage prints to stderr: its CPU time and that of the children it waited for (its servers, its workers). */
export const STAGE_CPU_PREFIX = 'fencecheck-stage-cpu: ';

export interface StageCpu {
  readonly userMs: number;
  readonly systemMs: number;
}

/** This process's CPU and its waited-for children's (Linux /proc: utime, stime, cutime, cstime); null elsewhere. */
export function processTreeCpu(): StageCpu | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    // Fields 14–17 of proc(5) are rest[11..14]; clock ticks are 100 a second on Linux.
    const tick = 10;
    return { userMs: (f[11]! + f[13]!) * tick, systemMs: (f[12]! + f[14]!) * tick };
  } catch {
    return null;
  }
}

/** A stage's CPU line (STAGE_CPU_PREFIX), or null when the line is another. */
export function parseStageCpu(line: string): StageCpu | null {
  if (!line.startsWith(STAGE_CPU_PREFIX)) return null;
  try {
    const v = JSON.parse(line.slice(STAGE_CPU_PREFIX.length)) as Partial<StageCpu>;
    return typeof v.userMs === 'number' && typeof v.systemMs === 'number' ? { userMs: v.userMs, systemMs: v.systemMs } : null;
  } catch {
    return null;
  }
}

const INTERVAL_MS = 500;
const KILL_AFTER_MS = 3_000;

/**
 * Starts the watchdog when this process is a stage of the verify named by FENCECHECK_VERIFY_PID;
 * otherwise does nothing. Removes the variable from the environment, so the stage's own children
 * (stopped with its group) do not watch a process that is not their parent.
 */
export function watchVerifyParent(env: NodeJS.ProcessEnv = process.env, intervalMs = INTERVAL_MS): NodeJS.Timeout | undefined {
  const raw = env[VERIFY_PID_ENV];
  if (raw === undefined) return undefined;
  delete env[VERIFY_PID_ENV];
  const verifyPid = Number(raw);
  if (!Number.isInteger(verifyPid) || verifyPid <= 1 || process.ppid !== verifyPid) return undefined;
  // What the stage cost, for verify's report and `bench verify` (written synchronously: stderr is a pipe).
  process.once('exit', () => {
    const cpu = processTreeCpu();
    if (cpu) process.stderr.write(`${STAGE_CPU_PREFIX}${JSON.stringify(cpu)}\n`);
  });
  const timer = setInterval(() => {
    if (process.ppid === verifyPid && alive(verifyPid)) return;
    clearInterval(timer);
    process.stderr.write(`fencecheck: verify (pid ${verifyPid}) is gone: stopping this stage\n`);
    // verify starts each stage as the leader of its own process group; signal the whole group.
    const target = leadsGroup() ? -process.pid : process.pid;
    setTimeout(() => signal(target, 'SIGKILL'), KILL_AFTER_MS).unref();
    signal(target, 'SIGTERM');
  }, intervalMs);
  timer.unref();
  return timer;
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
