/**
 * Runs one stage as a child process in its own process group, so a crash cannot take verify down,
 * and whatever the stage started (valkey-server, java) is killed by the group's id when it exits
 * or when verify is interrupted.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { parseStageCpu, VERIFY_PID_ENV, type StageCpu } from './watchdog.js';
import { maskSecrets } from '../core/secrets.js';

export interface ChildSpec {
  /** Executable and arguments, e.g. [process.execPath, 'bin/fencecheck.mjs', 'props', '--json']. */
  readonly command: readonly [string, ...string[]];
  readonly cwd: string;
  readonly timeoutMs: number;
  /** Called with every complete stderr line (progress). */
  readonly onLine?: (line: string) => void;
  readonly env?: NodeJS.ProcessEnv;
  /** Once aborted, the stage is not started, or its process group is stopped (SIGTERM, then SIGKILL). */
  readonly signal?: AbortSignal;
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
  /** Set when `signal` was aborted before the stage started or while it ran. */
  readonly interrupted?: boolean;
  /** The stage's CPU and its waited-for children's, as it reported at its exit (watchdog.ts). */
  readonly cpu?: StageCpu;
}

const MAX_STDERR = 1_000_000;
const GRACE_MS = 3_000;
/** How long an interrupted stage gets between SIGTERM and SIGKILL. */
const ABORT_GRACE_MS = 700;

/** Process groups of running stages, so an interrupted verify can stop them all by id. */
const running = new Set<number>();

export function runChild(spec: ChildSpec): Promise<ChildResult> {
  const startedAt = new Date();
  const t0 = performance.now();
  return new Promise((resolvePromise) => {
    if (spec.signal?.aborted) {
      resolvePromise({
        exitCode: null,
        signal: null,
        stdout: '',
        stderr: '',
        startedAt: startedAt.toISOString(),
        durationMs: 0,
        timedOut: false,
        spawnError: 'not started: verify was interrupted',
        leftoverProcesses: 0,
        interrupted: true,
      });
      return;
    }
    const [file, ...args] = spec.command;
    const child = spawn(file, args, {
      cwd: spec.cwd,
      detached: true, // own process group: pgid = child.pid
      stdio: ['ignore', 'pipe', 'pipe'],
      // The stage's watchdog (src/verify/watchdog.ts) stops the stage when this process is gone.
      env: { ...process.env, FORCE_COLOR: '0', [VERIFY_PID_ENV]: String(process.pid), ...spec.env },
    });
    const pgid = child.pid;
    if (pgid !== undefined) running.add(pgid);
    let interrupted = false;
    const onAbort = () => {
      interrupted = true;
      if (pgid === undefined) return;
      killGroup(pgid, 'SIGTERM');
      setTimeout(() => killGroup(pgid, 'SIGKILL'), ABORT_GRACE_MS).unref();
    };
    spec.signal?.addEventListener('abort', onAbort, { once: true });
    let stdout = '';
    let stderr = '';
    let partial = '';
    let timedOut = false;
    let cpu: StageCpu | null = null;
    const progressLine = (l: string) => {
      const c = parseStageCpu(l);
      if (c) cpu = c;
      else spec.onLine?.(maskSecrets(l));
    };
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr = (stderr + d).slice(-MAX_STDERR);
      const lines = (partial + d).split('\n');
      partial = lines.pop() ?? '';
      for (const l of lines) if (l.trim() !== '') progressLine(l.replace(/\r/g, ''));
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
      spec.signal?.removeEventListener('abort', onAbort);
      if (partial.trim() !== '') progressLine(partial);
      const durationMs = Math.round(performance.now() - t0);
      void countLeftovers(pgid).then((leftover) => {
        if (pgid !== undefined) running.delete(pgid);
        resolvePromise({
          exitCode,
          signal,
          // The stage masks what it prints; this is the second lock, for anything printed before it could (the logs and reports are written from these).
          stdout: maskSecrets(stdout),
          // Without the CPU line: the stage's last line of its own is what a reason quotes.
          stderr: maskSecrets(
            stderr
              .split('\n')
              .filter((l) => parseStageCpu(l) === null)
              .join('\n'),
          ),
          startedAt: startedAt.toISOString(),
          durationMs,
          timedOut,
          leftoverProcesses: leftover,
          ...(interrupted ? { interrupted } : {}),
          ...(cpu ? { cpu } : {}),
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

/**
 * Stops every running stage's process group: SIGTERM, then SIGKILL to whatever is still in a group
 * after `graceMs`; resolves once every group is empty (or ~400 ms after the SIGKILL at most).
 */
export async function stopAllChildren(graceMs = GRACE_MS): Promise<void> {
  const groups = [...running];
  if (groups.length === 0) return;
  for (const g of groups) killGroup(g, 'SIGTERM');
  const empty = () => groups.every((g) => groupMembers(g).length === 0);
  const deadline = performance.now() + graceMs;
  while (!empty() && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (empty()) return;
  for (const g of groups) killGroup(g, 'SIGKILL');
  const hardDeadline = performance.now() + 400;
  while (!empty() && performance.now() < hardDeadline) await new Promise((r) => setTimeout(r, 25));
}

/** SIGKILLs every running stage's process group at once (a second Ctrl-C). */
export function killAllChildrenNow(): void {
  for (const g of running) killGroup(g, 'SIGKILL');
}
