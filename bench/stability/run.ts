import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../src/core/project-root.js';
import { ownedTempDir, removeTempDir } from '../../src/core/temp-dir.js';
import { serversWorkingUnder } from '../../src/valkey/registry.js';

/**
 * One `fencecheck` command run by the stability benchmark, in a sandbox of its own: a private
 * TMPDIR and registry root (FENCECHECK_REGISTRY_DIR), so that what it leaves behind — a
 * valkey-server working in the root, a `fencecheck-*` entry in the TMPDIR — is its own, whatever
 * else runs on the machine. Optionally signalled once its servers are up.
 */
export interface Interrupt {
  readonly signal: 'SIGINT' | 'SIGTERM';
  /** SIGINT to the whole process group, as Ctrl-C in a terminal; otherwise to the PID alone. */
  readonly toGroup: boolean;
  /** How long after its first valkey-server appears the signal is sent. */
  readonly afterServersMs: number;
}

export interface CommandRun {
  readonly argv: readonly string[];
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly ms: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Signal sent → process ended; null when no signal was sent (it ended first, or none planned). */
  readonly stopMs: number | null;
  /** valkey-servers still running in its registry root when it ended. */
  readonly survivors: readonly number[];
  /** `fencecheck-*` entries left in its TMPDIR. */
  readonly leftovers: readonly string[];
  readonly timedOut: boolean;
}

const BIN = join(projectRoot, 'bin/fencecheck.mjs');

export async function runCommand(argv: readonly string[], opts: { interrupt?: Interrupt; hardLimitMs: number }): Promise<CommandRun> {
  const tmp = ownedTempDir('stability-tmp');
  const root = ownedTempDir('stability-root');
  try {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, ...argv], {
      cwd: projectRoot,
      // Its own process group: a terminal job, whose Ctrl-C reaches it and its servers only.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TMPDIR: tmp, FENCECHECK_REGISTRY_DIR: root, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    let ended = false;
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
      child.once('exit', (code, signal) => {
        ended = true;
        resolve({ code, signal, at: performance.now() });
      }),
    );
    let timedOut = false;
    const hard = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid!, 'SIGKILL');
    }, opts.hardLimitMs);
    let sentAt: number | null = null;
    if (opts.interrupt) {
      const i = opts.interrupt;
      void (async () => {
        while (!ended && serversWorkingUnder(root).length === 0) await sleep(100);
        if (ended) return;
        await sleep(i.afterServersMs);
        if (ended) return;
        sentAt = performance.now();
        if (i.toGroup) killGroup(child.pid!, i.signal);
        else process.kill(child.pid!, i.signal);
      })();
    }
    const end = await exited;
    clearTimeout(hard);
    // What is running in its root the moment it ended (a zombie is not running).
    const survivors = serversWorkingUnder(root).map((s) => s.pid);
    for (const pid of survivors) kill(pid); // by PID: a server of this run, working in its root
    await sleep(50); // let the pipes drain
    const leftovers = existsSync(tmp) ? readdirSync(tmp).filter((n) => n.startsWith('fencecheck-')) : [];
    const stopAt = sentAt as number | null;
    return { argv, code: end.code, signal: end.signal, ms: end.at - started, stdout, stderr, stopMs: stopAt === null ? null : end.at - stopAt, survivors, leftovers, timedOut };
  } finally {
    removeTempDir(tmp);
    removeTempDir(root);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* gone */
  }
}

function killGroup(pgid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pgid, sig);
  } catch {
    /* gone */
  }
}

/** 128 + the signal's number, as a shell reports a process ended by it or exiting with that code. */
export function shellStatus(r: Pick<CommandRun, 'code' | 'signal'>): number | null {
  if (r.code !== null) return r.code;
  const n: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
  return r.signal && n[r.signal] !== undefined ? 128 + n[r.signal]! : null;
}

export const CRASH_LINE = /crashed/;
export const STACK_LINE = /^\s+at .+/m;
