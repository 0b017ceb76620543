/**
 * A stage's guard against outliving verify. verify starts each stage with FENCECHECK_VERIFY_PID set
 * to its own PID; the stage (src/cli/main.ts) calls watchVerifyParent(), which checks every
 * ~500 ms that verify is still its parent. When verify is gone (SIGKILLed, crashed: the stage was
 * reparented), the stage sends SIGTERM to its own process group — itself and whatever it started
 * there — so its servers are killed by its end hooks, and SIGKILL a few seconds later if anything is
 * still there (src/core/parent-watchdog.ts, which the impl layer's workers use too).
 */
import { readFileSync } from 'node:fs';
import { stopWhenParentGone, takeParentPid } from '../core/parent-watchdog.js';

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

/**
 * Starts the watchdog when this process is a stage of the verify named by FENCECHECK_VERIFY_PID;
 * otherwise does nothing. Removes the variable from the environment, so the stage's own children
 * (stopped with its group) do not watch a process that is not their parent.
 */
export function watchVerifyParent(env: NodeJS.ProcessEnv = process.env, intervalMs?: number): NodeJS.Timeout | undefined {
  const verifyPid = takeParentPid(VERIFY_PID_ENV, env);
  if (verifyPid === undefined) return undefined;
  // What the stage cost, for verify's report and `bench verify` (written synchronously: stderr is a pipe).
  process.once('exit', () => {
    const cpu = processTreeCpu();
    if (cpu) process.stderr.write(`${STAGE_CPU_PREFIX}${JSON.stringify(cpu)}\n`);
  });
  // verify starts each stage as the leader of its own process group: the whole group is stopped.
  return stopWhenParentGone(verifyPid, 'verify', intervalMs);
}
