import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { readMark } from '../../src/core/owner-mark.js';
import { isRunning, processIds } from '../../src/core/process-table.js';
import { projectRoot } from '../../src/core/project-root.js';
import { PACKAGES } from '../../src/registry/systems.js';
import { ownedTempDir, removeTempDir } from '../../src/core/temp-dir.js';
import { importPackageModule } from '../package-module.js';
import { shellStatus } from '../stability/run.js';

/**
 * One draw of the signal census: a long `fencecheck` command in a sandbox of its own (a private
 * TMPDIR and registry root) is sent one signal, to its PID alone, at a seeded moment after it
 * started (not after its first server: the moments of a server's start are the ones that matter).
 * SIGKILL is followed by the next command's reap (`fencecheck topology reap`), as a user's next run
 * would. Then it counts what is left: processes of the sandbox (carrying its mark, naming its root
 * in their argv or environment, or working in it, a deleted folder included), folders (node folders, `fencecheck-*`
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
    const m = await importPackageModule<{ commands: readonly CensusCommand[] }>(p.name, 'census');
    if (m) own.push(...m.commands);
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

/**
 * When a draw's signal is due: `offsetMs` after the command's `event`-th record change in its
 * sandbox (a server, Prometheus or pod recorded as started, or its record removed as it stopped);
 * event 0 is the spawn. The moments that matter are a process start-up and its servers starting
 * and stopping, so a draw aims there and ends there, instead of waiting out a long window of work
 * that starts and stops nothing. A command that makes fewer changes is signalled `offsetMs` after
 * its last one, once QUIET_MS passed without another (FIRST_CHANGE_MS before its first).
 */
export interface CensusMoment {
  readonly event: number;
  readonly offsetMs: number;
}

/** The latest record change a draw aims at, and the spread of its offsets (start-up: after the spawn; otherwise after a change). */
export const MAX_EVENT = 6;
const STARTUP_SPREAD_MS = 2_000;
const CHANGE_SPREAD_MS = 500;

/** A seeded moment: the start-up or one of the first record changes, and an offset within its spread. */
export function drawMoment(rng: () => number): CensusMoment {
  const event = Math.floor(rng() * (MAX_EVENT + 1));
  return { event, offsetMs: Math.floor(rng() * (event === 0 ? STARTUP_SPREAD_MS : CHANGE_SPREAD_MS)) };
}

/** How a moment reads in a draw's line: `change 3 + 120 ms` (`start-up + 800 ms` for event 0). */
export const describeMoment = (m: CensusMoment): string => `${m.event === 0 ? 'start-up' : `change ${m.event}`} + ${m.offsetMs} ms`;

/** How long without a record change before a draw aiming at a later change takes the last one. */
const QUIET_MS = 1_500;
/** The same before the first change: a loaded machine's start-up, or verify's model stages, come first. */
const FIRST_CHANGE_MS = 60_000;
/** How often the sandbox's registry is looked at for record changes. */
const WATCH_MS = 5;

export interface CensusRun {
  readonly command: string;
  readonly signal: CensusSignal;
  /** When the signal was due. */
  readonly moment: CensusMoment;
  /** The record change the signal came after (fewer than asked when the command made fewer), and how long after the spawn it was sent. */
  readonly event: number;
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

/**
 * Whether `pid` runs with the sandbox's registry root in its environment: a fencecheck process of
 * the sandbox (a verify stage, an impl-layer worker) even when it carries no mark and names nothing
 * of the root in its argv.
 */
function inSandbox(pid: number, root: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`FENCECHECK_REGISTRY_DIR=${root}`);
  } catch {
    return false;
  }
}

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
      if (readMark(pid)?.root === root || cmdline.includes(root) || inRoot(cwd.replace(/ \(deleted\)$/, '')) || inSandbox(pid, root))
        processes.push({ pid, command: cmdline.split('\0').join(' ').trim() });
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

/** The record files of a sandbox's registry, by name. */
function recordNames(root: string): Set<string> {
  try {
    return new Set(readdirSync(join(root, 'registry')).filter((n) => n.endsWith('.json')));
  } catch {
    return new Set();
  }
}

/** How many records appeared or went between two looks. */
function changes(before: Set<string>, after: Set<string>): number {
  let n = 0;
  for (const x of after) if (!before.has(x)) n++;
  for (const x of before) if (!after.has(x)) n++;
  return n;
}

export async function censusRun(cmd: CensusCommand, signal: CensusSignal, moment: CensusMoment, hardLimitMs = 600_000): Promise<CensusRun> {
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
    const spawnedAt = performance.now();
    let sentAt: number | null = null;
    let event = 0;
    let ended = false;
    void exited.then(() => (ended = true));
    // Count record changes until the one aimed at (or a quiet spell after fewer), then wait the offset.
    const watch = (async () => {
      let seen = recordNames(root);
      let lastChange = performance.now();
      while (!ended && event < moment.event && performance.now() - lastChange < (event === 0 ? FIRST_CHANGE_MS : QUIET_MS)) {
        await sleep(WATCH_MS);
        const now = recordNames(root);
        const n = changes(seen, now);
        if (n > 0) {
          event = Math.min(moment.event, event + n);
          lastChange = performance.now();
        }
        seen = now;
      }
      await sleep(moment.offsetMs);
      if (ended) return;
      sentAt = performance.now();
      child.kill(signal);
    })();
    let timedOut = false;
    const hard = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid!);
    }, hardLimitMs);
    const end = await exited;
    await watch;
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
      moment,
      event,
      atMs: sent === null ? end.at - spawnedAt : sent - spawnedAt,
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
