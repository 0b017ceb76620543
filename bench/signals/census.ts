import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readMark } from '../../src/core/owner-mark.js';
import { isRunning, processIds } from '../../src/core/process-table.js';
import { projectRoot } from '../../src/core/project-root.js';
import { PACKAGES } from '../../src/registry/systems.js';
import { ownedTempDir, removeTempDir } from '../../src/core/temp-dir.js';
import { shellStatus } from '../stability/run.js';

/**
 * One draw of the signal census: a long `fencecheck` command in a sandbox of its own (a private
 * TMPDIR and registry root) is sent one signal, to its PID alone, at a seeded moment after it
 * started (not after its first server: the moments of a server's start are the ones that matter).
 * SIGKILL is followed by the next command's reap (`fencecheck topology reap`), as a user's next run
 * would. Then it counts what is left: processes of the sandbox (carrying its mark, naming its root
 * in their argv or working in it, a deleted folder included), folders (node folders, `fencecheck-*`
 * in its TMPDIR) and records naming a process that is gone.
 */
export type CensusSignal = 'SIGINT' | 'SIGTERM' | 'SIGKILL';
export const CENSUS_SIGNALS: readonly CensusSignal[] = ['SIGINT', 'SIGTERM', 'SIGKILL'];

export interface CensusCommand {
  readonly name: string;
  /** `out`: a folder of this run (verify's --out). */
  readonly argv: (out: string) => readonly string[];
}

/** The long commands over every system (README "Exit codes": a signal ends each by it, 130 / 143). */
const GENERIC_COMMANDS: readonly CensusCommand[] = [
  { name: 'verify', argv: (out) => ['verify', '--allow-not-run', 'tlc', '--out', out] },
  { name: 'props', argv: () => ['props'] },
  { name: 'conform', argv: () => ['conform'] },
  { name: 'mutants --layer impl', argv: () => ['mutants', '--layer', 'impl'] },
  { name: 'cluster-matrix', argv: () => ['cluster-matrix'] },
];

/**
 * Every long command: the generic ones, then each package's own long commands from
 * bench/<package>/census.ts (`commands`), found through the registry as its stability items are.
 */
export async function censusCommands(): Promise<CensusCommand[]> {
  const own: CensusCommand[] = [];
  for (const p of PACKAGES) {
    const file = join(import.meta.dirname, '..', p.name, 'census.ts');
    if (existsSync(file)) own.push(...((await import(pathToFileURL(file).href)) as { commands: readonly CensusCommand[] }).commands);
  }
  return [...GENERIC_COMMANDS, ...own];
}

/** The exit status a shell reports for each (SIGKILL: 137, no handler can run). */
export const EXPECTED_STATUS: Record<CensusSignal, number> = { SIGINT: 130, SIGTERM: 143, SIGKILL: 137 };

export interface Left {
  /** Running processes of the sandbox, with their command lines. */
  readonly processes: readonly { pid: number; command: string }[];
  /** Node folders and `fencecheck-*` entries of its TMPDIR. */
  readonly folders: readonly string[];
  /** Records naming a process that no longer runs. */
  readonly staleRecords: readonly number[];
}

export interface CensusRun {
  readonly command: string;
  readonly signal: CensusSignal;
  /** When the signal was due, after the spawn. */
  readonly atMs: number;
  /** The shell's exit status; null when it did not end within the hard limit. */
  readonly status: number | null;
  /** The command finished before its signal was due: nothing to judge but its own exit. */
  readonly endedFirst: boolean;
  /** Signal sent → process ended (null when none was sent). */
  readonly stopMs: number | null;
  /** The next command's reap, after a SIGKILL: how long it took and what it killed. */
  readonly reap?: { readonly ms: number; readonly killed: number };
  readonly left: Left;
  readonly stderrTail: string;
}

const BIN = join(projectRoot, 'bin/fencecheck.mjs');

/** What a sandbox (its registry root and TMPDIR) still holds. */
export function leftIn(root: string, tmp: string): Left {
  const processes: { pid: number; command: string }[] = [];
  for (const pid of processIds()) {
    if (pid === process.pid || !isRunning(pid)) continue;
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      let cwd = '';
      try {
        cwd = readlinkSync(`/proc/${pid}/cwd`);
      } catch {
        /* not ours to read */
      }
      const inRoot = (p: string) => p === root || p.startsWith(`${root}/`);
      if (readMark(pid)?.root === root || cmdline.includes(root) || inRoot(cwd.replace(/ \(deleted\)$/, ''))) processes.push({ pid, command: cmdline.split('\0').join(' ').trim() });
    } catch {
      /* gone */
    }
  }
  const list = (d: string) => (existsSync(d) ? readdirSync(d) : []);
  const folders = [...list(join(root, 'nodes')).map((n) => `nodes/${n}`), ...list(tmp).filter((n) => n.startsWith('fencecheck-'))];
  const staleRecords = list(join(root, 'registry'))
    .map((n) => /^(\d+)\.json$/.exec(n)?.[1])
    .filter((p): p is string => p !== undefined)
    .map(Number)
    .filter((p) => !isRunning(p));
  return { processes, folders, staleRecords };
}

export const nothingLeft = (l: Left): boolean => l.processes.length === 0 && l.folders.length === 0 && l.staleRecords.length === 0;

export async function censusRun(cmd: CensusCommand, signal: CensusSignal, atMs: number, hardLimitMs = 600_000): Promise<CensusRun> {
  const tmp = ownedTempDir('census-tmp');
  const root = ownedTempDir('census-root');
  const out = ownedTempDir('census-out');
  const env = { ...process.env, TMPDIR: tmp, FENCECHECK_REGISTRY_DIR: root, NO_COLOR: '1' };
  try {
    const child = spawn(process.execPath, [BIN, ...cmd.argv(out)], { cwd: projectRoot, detached: true, stdio: ['ignore', 'ignore', 'pipe'], env });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
      child.once('exit', (code, sig) => resolve({ code, signal: sig, at: performance.now() })),
    );
    let sentAt: number | null = null;
    const timer = setTimeout(() => {
      sentAt = performance.now();
      child.kill(signal);
    }, atMs);
    let timedOut = false;
    const hard = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid!);
    }, hardLimitMs);
    const end = await exited;
    clearTimeout(timer);
    clearTimeout(hard);
    const sent = sentAt as number | null;
    let reap: CensusRun['reap'];
    if (signal === 'SIGKILL' && sent !== null) {
      const t0 = performance.now();
      const r = spawnSync(process.execPath, [BIN, 'topology', 'reap', '--json'], { cwd: projectRoot, env, encoding: 'utf8', timeout: 60_000 });
      let killed = -1;
      try {
        killed = (JSON.parse(r.stdout) as { details: { killed: number[] } }).details.killed.length;
      } catch {
        /* reported as -1 */
      }
      reap = { ms: performance.now() - t0, killed };
      // What it killed are init's zombies for a moment: give them that moment.
      await new Promise((r) => setTimeout(r, 200));
    }
    const left = leftIn(root, tmp);
    // Whatever is left is stopped here, by PID, so that one bad run does not spoil the next.
    for (const p of left.processes) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    const status = timedOut ? null : shellStatus({ code: end.code, signal: end.signal });
    return {
      command: cmd.name,
      signal,
      atMs,
      status,
      endedFirst: sent === null,
      stopMs: sent === null ? null : end.at - sent,
      ...(reap && { reap }),
      left,
      stderrTail: stderr.split('\n').filter(Boolean).slice(-4).join('\n'),
    };
  } finally {
    removeTempDir(out);
    removeTempDir(root);
    removeTempDir(tmp);
  }
}

function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    /* gone */
  }
}

/** What is wrong with one draw: an exit not as documented, or anything left. */
export function problems(r: CensusRun): string[] {
  const out: string[] = [];
  if (r.endedFirst) {
    if (r.status !== 0) out.push(`exit ${r.status} before any signal`);
  } else if (r.status !== EXPECTED_STATUS[r.signal]) out.push(`exit ${r.status}, not ${EXPECTED_STATUS[r.signal]}`);
  if (r.left.processes.length > 0) out.push(`processes left: ${r.left.processes.map((p) => `${p.pid} (${p.command.slice(0, 80)})`).join(', ')}`);
  if (r.left.folders.length > 0) out.push(`folders left: ${r.left.folders.join(', ')}`);
  if (r.left.staleRecords.length > 0) out.push(`records of dead processes: ${r.left.staleRecords.join(', ')}`);
  return out;
}
