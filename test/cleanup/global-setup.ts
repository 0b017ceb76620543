import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { harnessTempRoot, isAlive, listRecords, reapOrphans, serversWorkingUnder } from '../../src/valkey/registry.js';
import { defaultProvider, dockerReason } from '../../src/valkey/start.js';
import { findLeftovers, isClean, leftoverLines, mountsUnder } from './leftovers.js';

/**
 * vitest globalSetup: reaps valkey-servers left by earlier runs whose owner died (SIGKILL, OOM), and
 * gives the run a temporary directory of its own: TMPDIR points into it for every test worker and
 * every process a test starts (the harness's registry root included), so what this run leaves is
 * told apart from what other runs on the machine make at the same time. After the whole suite the
 * teardown reaps what dead workers left, then FAILS THE RUN (exit 1, one line per thing) when a
 * `fencecheck-*` entry, a server record or node folder, or a valkey-server is still there; the
 * directory is removed in any case. A run interrupted before its teardown (Ctrl-C on vitest) leaves
 * its directory: the next run reaps the servers in it and removes it.
 */
let suiteTmp: string | undefined;
let savedTmpdir: string | undefined;

export async function setup(): Promise<void> {
  // Probe for a container engine once; the test workers inherit the answer (and the message).
  if (defaultProvider() === 'auto') {
    const docker = await dockerReason();
    if (docker !== null) process.stderr.write(`fencecheck: provider auto: ${docker}; using native valkey-server\n`);
  }
  const killed = reapOrphans();
  if (killed.length > 0) process.stderr.write(`fencecheck: reaped ${killed.length} valkey-server(s) left by a dead process: ${killed.join(', ')}\n`);
  const stale = removeStaleRunDirs();
  if (stale.length > 0) process.stderr.write(`fencecheck: removed ${stale.length} temporary director${stale.length === 1 ? 'y' : 'ies'} of interrupted test runs: ${stale.join(', ')}\n`);
  savedTmpdir = process.env.TMPDIR;
  // Not an ownedTempDir: this process is vitest's own, whose signals are not ours to handle; the
  // teardown removes it. Named by this process's PID, for removeStaleRunDirs.
  suiteTmp = mkdtempSync(join(tmpdir(), `${RUN_DIR_PREFIX}${process.pid}-`));
  process.env.TMPDIR = suiteTmp;
}

export function teardown(): void {
  const problems: string[] = [];
  const killed = reapOrphans();
  if (killed.length > 0) problems.push(`${killed.length} valkey-server(s) outlived the test worker that started them (reaped now): ${killed.join(', ')}`);
  const mine = listRecords().filter((r) => r.ownerPid === process.pid && isAlive(r.pid));
  if (mine.length > 0) problems.push(`${mine.length} valkey-server(s) still owned by the vitest main process: ${mine.map((r) => r.pid).join(', ')}`);
  if (suiteTmp !== undefined) {
    const left = findLeftovers(suiteTmp, harnessTempRoot());
    if (!isClean(left)) problems.push(...leftoverLines(left));
    // By PID, each one checked again right before: a valkey-server working in our own directory.
    for (const s of left.servers) if (serversWorkingUnder(suiteTmp).some((x) => x.pid === s.pid)) killQuietly(s.pid);
    detachMounts(suiteTmp);
    rmSync(suiteTmp, { recursive: true, force: true });
    if (savedTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmpdir;
  }
  if (problems.length > 0) {
    process.stderr.write(`\nfencecheck: the test run left things behind (the run fails):\n${problems.map((p) => `  - ${p}\n`).join('')}`);
    process.exitCode = 1;
  }
}

const RUN_DIR_PREFIX = 'fencecheck-suite-';

/**
 * The directories of earlier runs whose vitest process is gone (it was interrupted before its
 * teardown): the servers recorded in their registry root are reaped as the root's own reaper would
 * (verified, by PID), any other valkey-server working in them is killed, and they are removed.
 */
function removeStaleRunDirs(): string[] {
  const removed: string[] = [];
  const base = tmpdir();
  for (const name of readdirSync(base)) {
    const owner = Number(new RegExp(`^${RUN_DIR_PREFIX}(\\d+)-`).exec(name)?.[1]);
    if (!Number.isInteger(owner) || owner <= 0 || isAlive(owner)) continue;
    const dir = join(base, name);
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = dir;
    try {
      reapOrphans();
    } catch {
      /* a root that is not ours and private: its servers are not touched, the folder goes below */
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    for (const s of serversWorkingUnder(dir)) killQuietly(s.pid);
    detachMounts(dir);
    rmSync(dir, { recursive: true, force: true });
    removed.push(dir);
  }
  return removed;
}

/** A file system a test mounted inside `dir` and left there: detached, so `dir` can be removed. */
function detachMounts(dir: string): void {
  for (const m of mountsUnder(dir).reverse()) {
    try {
      execFileSync('umount', ['-l', m], { stdio: 'pipe' });
    } catch {
      /* not ours to unmount: the removal below reports what stays */
    }
  }
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* gone meanwhile */
  }
}
