/**
 * Runs one stage as a child process in its own process group, so a crash cannot take verify down,
 * and whatever the stage started (valkey-server, java) is killed by the group's id when it exits
 * or when verify is interrupted.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface ChildSpec {
  /** Executable and arguments, e.g. [process.execPath, 'bin/fencecheck.mjs', 'props', '--json']. */
  readonly command: readonly [string, ...string[]];
  readonly cwd: string;
  readonly timeoutMs: number;
  /** Called with every complete stderr line (progress). */
  readonly onLine?: (line: string) => void;
  readonly env?: NodeJS.ProcessEnv;
}

export interface ChildResult {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  /** The whole stderr (bounded to the last MAX_STDERR characters). */
  readonly stderr: string;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly timedOut: boolean;
  /** Set when the process could not be started at all. */
  readonly spawnError?: string;
  /** Processes still in the group after the stage exited (then killed). */
  readonly leftoverProcesses: number;
}

const MAX_STDERR = 1_000_000;
const GRACE_MS = 3_000;

/** Process groups of running stages, so an interrupted verify can stop them all by id. */
const running = new Set<number>();

export function runChild(spec: ChildSpec): Promise<ChildResult> {
  const startedAt = new Date();
  const t0 = performance.now();
  return new Promise((resolvePromise) => {
    const [file, ...args] = spec.command;
    const child = spawn(file, args, {
      cwd: spec.cwd,
      detached: true, // own process group: pgid = child.pid
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: '0', ...spec.env },
    });
    const pgid = child.pid;
    if (pgid !== undefined) running.add(pgid);
    let stdout = '';
    let stderr = '';
    let partial = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr = (stderr + d).slice(-MAX_STDERR);
      const lines = (partial + d).split('\n');
      partial = lines.pop() ?? '';
      for (const l of lines) if (l.trim() !== '') spec.onLine?.(l.replace(/\r/g, ''));
    });
    const timer = setTimeout(() => {
      timedOut = true;
      if (pgid !== undefined) killGroup(pgid, 'SIGTERM');
      setTimeout(() => pgid !== undefined && killGroup(pgid, 'SIGKILL'), GRACE_MS).unref();
    }, spec.timeoutMs);
    let settled = false;
    const finish = (exitCode: number | null, signal: string | null, spawnError?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (partial.trim() !== '') spec.onLine?.(partial);
      const durationMs = Math.round(performance.now() - t0);
      void countLeftovers(pgid).then((leftover) => {
        if (pgid !== undefined) running.delete(pgid);
        resolvePromise({
          exitCode,
          signal,
          stdout,
          stderr,
          startedAt: startedAt.toISOString(),
          durationMs,
          timedOut,
          leftoverProcesses: leftover,
          ...(spawnError !== undefined ? { spawnError } : {}),
        });
      });
    };
    child.on('error', (err) => finish(null, null, err.message));
    // 'exit', not 'close': a leaked grandchild holding the pipes must not keep verify waiting.
    child.on('exit', (code, signal) => {
      // Let the pipes drain what the stage wrote just before exiting.
      let drained = 0;
      const done = () => ++drained === 2 && finish(code, signal);
      if (child.stdout.readableEnded) done();
      else child.stdout.once('end', done);
      if (child.stderr.readableEnded) done();
      else child.stderr.once('end', done);
      setTimeout(() => finish(code, signal), 1_000).unref();
    });
  });
}

/** Members of the group once the stage has exited; a process still stopping gets a moment first. */
async function countLeftovers(pgid: number | undefined): Promise<number> {
  if (pgid === undefined) return 0;
  if (groupMembers(pgid).length === 0) return 0;
  await new Promise((r) => setTimeout(r, 500));
  const left = groupMembers(pgid).length;
  if (left > 0) killGroup(pgid, 'SIGKILL');
  return left;
}

function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/** PIDs whose process group is `pgid` (Linux /proc; elsewhere a liveness probe of the group). */
export function groupMembers(pgid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    try {
      process.kill(-pgid, 0);
      return [pgid];
    } catch {
      return [];
    }
  }
  const pids: number[] = [];
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      // Fields after the parenthesised command: state ppid pgrp ...
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(rest[2]) === pgid && rest[0] !== 'Z') pids.push(Number(e));
    } catch {
      // The process exited while we looked.
    }
  }
  return pids;
}

/** Stops every running stage's process group (SIGTERM, then SIGKILL after a grace period). */
export async function stopAllChildren(): Promise<void> {
  const groups = [...running];
  for (const g of groups) killGroup(g, 'SIGTERM');
  if (groups.length === 0) return;
  await new Promise((r) => setTimeout(r, GRACE_MS));
  for (const g of groups) killGroup(g, 'SIGKILL');
}
