import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A record of every valkey-server this machine's fencecheck processes started: one JSON file per
 * server, named by its PID. The owner is the process that started it. A server whose owner is dead
 * (a test worker killed by SIGKILL, a crashed CLI) is reaped by the next run and by the vitest
 * global teardown. Stopping always goes by PID, and only after checking that the PID is still the
 * valkey-server on the recorded port (PIDs get reused).
 */
export interface ServerRecord {
  readonly pid: number;
  readonly ownerPid: number;
  /** The owner's start time (/proc/PID/stat field 22), so a reused owner PID is not taken for the owner. */
  readonly ownerStart?: string;
  readonly port: number;
  readonly dir: string;
  readonly startedAt: string;
}

export function registryDir(): string {
  return process.env.FENCECHECK_REGISTRY_DIR ?? join(tmpdir(), 'fencecheck-valkey');
}

function recordPath(pid: number): string {
  return join(registryDir(), `${pid}.json`);
}

export function recordServer(rec: ServerRecord): void {
  mkdirSync(registryDir(), { recursive: true });
  writeFileSync(recordPath(rec.pid), `${JSON.stringify(rec)}\n`);
}

export function forgetServer(pid: number): void {
  rmSync(recordPath(pid), { force: true });
}

export function listRecords(): ServerRecord[] {
  const dir = registryDir();
  if (!existsSync(dir)) return [];
  const out: ServerRecord[] = [];
  for (const f of readdirSync(dir)) {
    if (!f.endsWith('.json')) continue;
    try {
      const rec = JSON.parse(readFileSync(join(dir, f), 'utf8')) as ServerRecord;
      if (Number.isInteger(rec.pid) && Number.isInteger(rec.ownerPid)) out.push(rec);
    } catch {
      // A half-written record: its writer is alive and will finish it, or it is garbage.
    }
  }
  return out;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Start time of a process in clock ticks since boot (Linux), or undefined elsewhere. */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Whether the process that recorded a server still runs (same PID and same start time). */
export function ownerAlive(rec: Pick<ServerRecord, 'ownerPid' | 'ownerStart'>): boolean {
  if (!isAlive(rec.ownerPid)) return false;
  if (rec.ownerStart === undefined) return true;
  const now = processStart(rec.ownerPid);
  return now === undefined || now === rec.ownerStart;
}

/** True when `pid` is (still) a valkey-server listening on the recorded port, not a reused PID. */
export function isRecordedServer(rec: Pick<ServerRecord, 'pid' | 'port'>): boolean {
  try {
    const cmdline = readFileSync(`/proc/${rec.pid}/cmdline`, 'utf8').split('\0');
    if (!cmdline.some((a) => /valkey-server/.test(a))) return false;
    // The title valkey-server sets is "valkey-server 127.0.0.1:PORT"; the argv form has "--port PORT".
    const title = new RegExp(`:${rec.port}(\\s|$)`);
    return cmdline.some((a) => title.test(a)) || cmdline.some((a, i) => a === '--port' && cmdline[i + 1] === String(rec.port));
  } catch {
    // No /proc (not Linux) or the process is gone: only a live PID can be ours.
    return process.platform !== 'linux' && isAlive(rec.pid);
  }
}

/** SIGKILL a recorded server (synchronously) and drop its record and temp dir. */
export function killRecordedSync(rec: ServerRecord): boolean {
  let killed = false;
  if (isRecordedServer(rec)) {
    try {
      process.kill(rec.pid, 'SIGKILL');
      killed = true;
    } catch {
      /* already gone */
    }
  }
  forgetServer(rec.pid);
  if (rec.dir) rmSync(rec.dir, { recursive: true, force: true });
  return killed;
}

/**
 * Kills every recorded server whose owner process is dead; forgets records of servers already gone.
 * Returns the PIDs it killed.
 */
export function reapOrphans(): number[] {
  const killed: number[] = [];
  for (const rec of listRecords()) {
    const serverGone = !isAlive(rec.pid) || !isRecordedServer(rec);
    if (serverGone) {
      forgetServer(rec.pid);
      if (!ownerAlive(rec) && rec.dir) rmSync(rec.dir, { recursive: true, force: true });
      continue;
    }
    if (rec.ownerPid !== process.pid && !ownerAlive(rec)) {
      if (killRecordedSync(rec)) killed.push(rec.pid);
    }
  }
  return killed;
}
