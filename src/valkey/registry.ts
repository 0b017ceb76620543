import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { ValkeyUnavailableError } from './errors.js';
import { envValue } from '../core/env.js';
import { carriesMark, killMarkedOrphans } from '../core/owner-mark.js';
import { removeDeadOwnersTempDirs } from '../core/temp-dir.js';
import { isAlive, isRunning, processesWorkingUnder, processStart, sameProcessAlive, waitGoneSync } from '../core/process-table.js';

/**
 * A record of every valkey-server this user's fencecheck processes started: one JSON file per
 * server, named by its PID, in the registry of the harness's private temporary root
 * (`harnessTempRoot()`: a folder owned by us, mode 0700). The owner is the process that started it.
 * A server whose owner is dead (a test worker killed by SIGKILL, a crashed CLI) is reaped by the
 * next run and by the vitest global teardown.
 *
 * Nothing in a record is acted on (a PID killed, a folder removed) unless every check holds:
 * the root is ours and private, the record file is a regular file of ours in the registry, and
 * — to kill — the PID is a live valkey-server of our uid, listening on the recorded port, whose
 * working folder is the record's dir, a folder directly inside `<root>/nodes/` (realpath).
 * A folder is removed only when it is a real folder of ours directly inside `<root>/nodes/`.
 */
export interface ServerRecord {
  readonly pid: number;
  readonly ownerPid: number;
  /** The owner's start time (/proc/PID/stat field 22), so a reused owner PID is not taken for the owner. */
  readonly ownerStart?: string;
  readonly port: number;
  readonly dir: string;
  readonly startedAt: string;
  /** `INFO server` run_id, once the node answered PING: tells this server from another on the same port. */
  readonly runId?: string;
  /**
   * The executable's name when the process is not a valkey-server but another server the harness
   * starts the same way (a Prometheus): the same checks, against that name.
   */
  readonly program?: string;
}

const myUid = (): number | undefined => process.getuid?.();

/**
 * The harness's own temporary root: `FENCECHECK_REGISTRY_DIR`, or `os.tmpdir()/fencecheck-<uid>`.
 * It holds `registry/` (the records) and `nodes/` (every native server's data dir).
 */
export function harnessTempRoot(): string {
  const override = process.env.FENCECHECK_REGISTRY_DIR;
  if (override) return resolve(override);
  return join(tmpdir(), `fencecheck-${myUid() ?? userInfo().username}`);
}

export function registryDir(): string {
  return join(harnessTempRoot(), 'registry');
}

export function nodesDir(): string {
  return join(harnessTempRoot(), 'nodes');
}

/** Why `path` may not be used as one of our private folders, or undefined when it may (or is absent: 'absent'). */
function privateDirProblem(path: string): string | undefined | 'absent' {
  let st;
  try {
    st = lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'absent';
    return `cannot lstat it (${(err as Error).message})`;
  }
  const problems: string[] = [];
  if (st.isSymbolicLink()) problems.push('it is a symbolic link');
  else if (!st.isDirectory()) problems.push('it is not a directory');
  const me = myUid();
  if (me !== undefined) {
    if (st.uid !== me) problems.push(`it is owned by uid ${st.uid}, not by us (uid ${me})`);
    if (!st.isSymbolicLink() && (st.mode & 0o077) !== 0) problems.push(`its mode is ${(st.mode & 0o777).toString(8).padStart(3, '0')}: group/other may use it (must be 700)`);
  }
  return problems.length > 0 ? problems.join('; ') : undefined;
}

function refuse(path: string, what: string, problem: string): never {
  throw new ValkeyUnavailableError(
    `refusing to use ${path} as fencecheck's ${what}: ${problem}. Nothing in it was touched; ` + `remove it, or set FENCECHECK_REGISTRY_DIR to a folder of yours with mode 700`,
  );
}

/** Checks the root and its two subfolders if they exist; false when the root does not exist yet. Throws when unsafe. */
function checkRoot(): boolean {
  const root = harnessTempRoot();
  const p = privateDirProblem(root);
  if (p === 'absent') return false;
  if (p !== undefined) refuse(root, 'temporary root', p);
  for (const [sub, what] of [
    ['registry', 'process registry'],
    ['nodes', 'node folder'],
  ] as const) {
    const q = privateDirProblem(join(root, sub));
    if (q !== undefined && q !== 'absent') refuse(join(root, sub), what, q);
  }
  return true;
}

/** Non-throwing: the root, `registry/` and `nodes/` all exist and are ours and private. */
function rootIsSafe(): boolean {
  const root = harnessTempRoot();
  return [root, join(root, 'registry'), join(root, 'nodes')].every((d) => privateDirProblem(d) === undefined);
}

function ensurePrivateDir(path: string, what: string): void {
  try {
    mkdirSync(path, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new ValkeyUnavailableError(`cannot create fencecheck's ${what} ${path}: ${(err as Error).message}`, { cause: err });
  }
  const p = privateDirProblem(path);
  if (p !== undefined) refuse(path, what, p === 'absent' ? 'it vanished after it was created' : p);
}

/** Creates (mode 0700) or verifies the root, `registry/` and `nodes/`; ValkeyUnavailableError when one is not ours and private. */
export function ensureHarnessRoot(): string {
  const root = harnessTempRoot();
  mkdirSync(dirname(root), { recursive: true });
  ensurePrivateDir(root, 'temporary root');
  ensurePrivateDir(join(root, 'registry'), 'process registry');
  ensurePrivateDir(join(root, 'nodes'), 'node folder');
  return root;
}

/**
 * A fresh data dir for a server on `port`, inside `<root>/nodes/`, named `<port>-o<ownerPid>.<ownerStart>-XXXXXX`:
 * the name says whose it is from the moment it exists, so a folder an owner left when it was
 * SIGKILLed before its server was spawned or recorded is still found, and removed, by a reaper.
 */
export function makeNodeDir(port: number): string {
  ensureHarnessRoot();
  return mkdtempSync(join(nodesDir(), `${port}-o${process.pid}.${processStart(process.pid) ?? ''}-`));
}

/** The owner a node folder's name gives (makeNodeDir), undefined for a name of another form. */
export function nodeDirOwner(name: string): { ownerPid: number; ownerStart: string | undefined } | undefined {
  const m = /^\d+-o(\d+)\.(\d*)-[^/]+$/.exec(name);
  return m ? { ownerPid: Number(m[1]), ownerStart: m[2] === '' ? undefined : m[2] } : undefined;
}

/**
 * The real path of `dir` when it is a real folder (not a symlink) of ours directly inside
 * `<root>/nodes/`; undefined otherwise. The only folders the harness ever removes.
 */
export function nodeDirRealPath(dir: unknown): string | undefined {
  if (typeof dir !== 'string' || !isAbsolute(dir)) return undefined;
  try {
    const st = lstatSync(dir);
    const me = myUid();
    if (!st.isDirectory() || (me !== undefined && st.uid !== me)) return undefined;
    if (!rootIsSafe()) return undefined;
    const nodes = nodesDir();
    const real = realpathSync(dir);
    return dirname(real) === realpathSync(nodes) && basename(real) !== '' ? real : undefined;
  } catch {
    return undefined;
  }
}

/** Removes a node's data dir, only if it passes nodeDirRealPath right now; true when removed. */
export function removeNodeDir(dir: string): boolean {
  const real = nodeDirRealPath(dir);
  if (real === undefined) return false;
  rmSync(real, { recursive: true, force: true });
  return true;
}

function recordPath(pid: number): string {
  return join(registryDir(), `${pid}.json`);
}

/** Writes (atomically: temp file + rename, mode 0600) the record of a server. */
export function recordServer(rec: ServerRecord): void {
  ensureHarnessRoot();
  const tmp = `${recordPath(rec.pid)}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(rec)}\n`, { mode: 0o600 });
  renameSync(tmp, recordPath(rec.pid));
}

export function forgetServer(pid: number): void {
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    // Never through a symlink or a folder that is not ours: the root and registry must check out.
    if (!rootIsSafe()) return;
    rmSync(recordPath(pid), { force: true });
  } catch {
    /* gone already */
  }
}

const isPid = (v: unknown): v is number => Number.isInteger(v) && (v as number) > 0;
const optString = (v: unknown) => v === undefined || typeof v === 'string';

function wellFormed(v: unknown, file: string): v is ServerRecord {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  return (
    isPid(r.pid) &&
    file === `${r.pid}.json` &&
    isPid(r.ownerPid) &&
    Number.isInteger(r.port) &&
    (r.port as number) > 0 &&
    (r.port as number) < 65536 &&
    typeof r.dir === 'string' &&
    optString(r.ownerStart) &&
    optString(r.runId) &&
    optString(r.startedAt) &&
    (r.program === undefined || (typeof r.program === 'string' && /^[a-z][a-z0-9-]*$/.test(r.program)))
  );
}

/**
 * The records in our registry that can be trusted: regular files owned by us, well-formed. Throws
 * ValkeyUnavailableError when the root exists but is not ours and private. With `prune`, deletes
 * malformed record files of ours (writes are atomic, so a malformed record is garbage).
 */
function readRecords(prune: boolean): ServerRecord[] {
  if (!checkRoot()) return [];
  const dir = registryDir();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const me = myUid();
  const out: ServerRecord[] = [];
  for (const f of names) {
    if (!f.endsWith('.json')) continue;
    const file = join(dir, f);
    try {
      const st = lstatSync(file);
      if (!st.isFile() || (me !== undefined && st.uid !== me)) continue; // not ours: never read, never acted on
      let rec: unknown;
      try {
        rec = JSON.parse(readFileSync(file, 'utf8'));
      } catch {
        rec = undefined;
      }
      if (wellFormed(rec, f)) out.push(rec);
      else if (prune) rmSync(file, { force: true });
    } catch {
      /* vanished meanwhile */
    }
  }
  return out;
}

/** Every trusted record (see readRecords); throws ValkeyUnavailableError when the root is unsafe. */
export function listRecords(): ServerRecord[] {
  return readRecords(true);
}

export { isAlive, isRunning, processStart };

/** Whether the process that recorded a server still runs (same PID and same start time). */
export function ownerAlive(rec: Pick<ServerRecord, 'ownerPid' | 'ownerStart'>): boolean {
  return sameProcessAlive(rec.ownerPid, rec.ownerStart);
}

let configuredExe: string | null | undefined;

/** Real path of the valkey-server the harness runs (FENCECHECK_VALKEY_SERVER or PATH), null if not found. */
function configuredValkeyExe(): string | null {
  if (configuredExe !== undefined) return configuredExe;
  const name = envValue('FENCECHECK_VALKEY_SERVER') ?? 'valkey-server';
  configuredExe = null;
  const candidates = name.includes('/')
    ? [name]
    : (process.env.PATH ?? '')
        .split(':')
        .filter(Boolean)
        .map((d) => join(d, name));
  for (const c of candidates) {
    try {
      configuredExe = realpathSync(c);
      break;
    } catch {
      /* not there: next PATH entry (none: only the basename rule applies) */
    }
  }
  return configuredExe;
}

/** Whether the executable image of `pid` is valkey-server (Debian's valkey-server is a link to valkey-check-rdb), or `program`. */
function isValkeyExecutable(pid: number, program?: string): boolean {
  const exe = readlinkSync(`/proc/${pid}/exe`).replace(/ \(deleted\)$/, '');
  if (program !== undefined) return basename(exe) === program;
  if (/^valkey-(server|check-rdb|check-aof)$/.test(basename(exe))) return true;
  const configured = configuredValkeyExe();
  try {
    return configured !== null && realpathSync(exe) === configured;
  } catch {
    return false;
  }
}

/**
 * valkey-server processes (not zombies) whose working folder lies under `dir` (Linux /proc; empty
 * elsewhere): a server works in its --dir, so this finds every server started with a data folder
 * there, recorded or not. What the test run's teardown and the stability benchmark call survivors.
 */
export function serversWorkingUnder(dir: string): { pid: number; cwd: string }[] {
  const out: { pid: number; cwd: string }[] = [];
  let real: string;
  try {
    real = realpathSync(dir);
  } catch {
    return out;
  }
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    try {
      if (!isRunning(pid)) continue;
      if (!readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('valkey-server')) continue;
      const cwd = realpathSync(`/proc/${name}/cwd`);
      if (cwd === real || cwd.startsWith(`${real}/`)) out.push({ pid, cwd });
    } catch {
      /* gone, or not ours to read */
    }
  }
  return out;
}

/** True when `pid` is a valkey-server listening on the recorded port (its title or argv says so). */
export function isRecordedServer(rec: Pick<ServerRecord, 'pid' | 'port' | 'program'>): boolean {
  try {
    const cmdline = readFileSync(`/proc/${rec.pid}/cmdline`, 'utf8').split('\0');
    const program = rec.program ?? 'valkey-server';
    if (!cmdline.some((a) => a.includes(program))) return false;
    // The title valkey-server sets is "valkey-server 127.0.0.1:PORT"; the argv form (the harness sets no title) has "--port PORT".
    const title = new RegExp(`:${rec.port}(\\s|$)`);
    return cmdline.some((a) => title.test(a)) || cmdline.some((a, i) => a === '--port' && cmdline[i + 1] === String(rec.port));
  } catch {
    return false;
  }
}

/**
 * True only when the record's PID is, right now, the server the harness recorded: alive, owned by
 * our uid, carrying the harness's mark for this root (src/core/owner-mark.ts), a valkey-server executable, listening on the recorded port, with its working folder
 * (valkey-server chdirs into --dir) equal to the record's dir, itself a real folder of ours directly
 * inside `<root>/nodes/`. Linux only (/proc): elsewhere nothing can be verified, so nothing is killed.
 */
export function isHarnessProcess(rec: Pick<ServerRecord, 'pid' | 'port' | 'dir' | 'program'>): boolean {
  if (process.platform !== 'linux' || !isPid(rec.pid) || !isAlive(rec.pid)) return false;
  try {
    const me = myUid();
    if (me !== undefined && statSync(`/proc/${rec.pid}`).uid !== me) return false;
    // The harness's mark (src/core/owner-mark.ts): a server without it was not started by us.
    if (!carriesMark(rec.pid, harnessTempRoot())) return false;
    if (!isValkeyExecutable(rec.pid, rec.program)) return false;
    if (!isRecordedServer(rec)) return false;
    const dir = nodeDirRealPath(rec.dir);
    return dir !== undefined && readlinkSync(`/proc/${rec.pid}/cwd`) === dir;
  } catch {
    return false;
  }
}

/** How long a reaper waits, synchronously, for what it killed to be gone before it drops records and folders. */
const REAP_WAIT_MS = 1000;

/**
 * SIGKILL a recorded server (synchronously) if it passes isHarnessProcess; its record and (safe) dir
 * are dropped only once it is seen gone (a record removed while its process lives on would leave a
 * server nobody can name as ours). Returns whether it was killed.
 */
export function killRecordedSync(rec: ServerRecord): boolean {
  let killed = false;
  if (isHarnessProcess(rec)) {
    try {
      process.kill(rec.pid, 'SIGKILL');
      killed = true;
    } catch {
      /* already gone */
    }
  }
  if (waitGoneSync([rec.pid], killed ? REAP_WAIT_MS : 0).length === 1) {
    forgetServer(rec.pid);
    removeNodeDir(rec.dir);
  }
  return killed;
}

/**
 * Kills what dead owners left, found two ways: every recorded server whose owner process is dead
 * and that passes isHarnessProcess, and every process of the process table that carries this
 * root's mark (src/core/owner-mark.ts) and whose owner is dead, recorded or not (a valkey-server,
 * a prometheus, a pod: whatever the harness started). Drops the records of dead owners whose server
 * is gone, and removes the node folders of dead owners (their names say whose they are) that no
 * live process works in. Records of live owners are theirs to handle; a record whose PID is alive
 * but fails the checks is ignored, and so is a process without the mark. Returns the PIDs it killed.
 * Throws ValkeyUnavailableError (acting on nothing) when the root is not ours and private.
 */
export function reapOrphans(): number[] {
  const killed: number[] = [];
  // An orphan the mark pass ends may itself own servers (an impl-layer worker whose parent died by
  // SIGKILL): they are orphans only once it is gone, so the passes run again while they end owners.
  for (let round = 0; round < REAP_ROUNDS; round++) {
    const before = killed.length;
    reapOnce(killed);
    if (killed.length === before) break;
  }
  removeDeadOwnersNodeDirs();
  // And the temporary folders (ownedTempDir) of dead owners: a SIGKILLed command leaves its own too.
  removeDeadOwnersTempDirs();
  return killed;
}

/** Nesting of owners the reaper follows: a command, its worker, the worker's servers. */
const REAP_ROUNDS = 3;

/** One pass over the records, then the process table; what it kills is added to `killed`. */
function reapOnce(killed: number[]): void {
  for (const rec of listRecords()) {
    if (ownerAlive(rec)) continue;
    if (isHarnessProcess(rec)) {
      if (killRecordedSync(rec) && !killed.includes(rec.pid)) killed.push(rec.pid);
      continue;
    }
    // A live PID that is not verifiably the recorded server (reused, or not ours) is left alone, and
    // so is its record. Only once the PID is dead are the record and our own dir cleaned up.
    if (isRunning(rec.pid)) continue;
    forgetServer(rec.pid);
    removeNodeDir(rec.dir);
  }
  if (!checkRoot()) return;
  const marked = killMarkedOrphans(harnessTempRoot());
  const gone = new Set(
    waitGoneSync(
      marked.map((o) => o.pid),
      REAP_WAIT_MS,
    ),
  );
  for (const o of marked) {
    if (!killed.includes(o.pid)) killed.push(o.pid);
    if (gone.has(o.pid)) forgetServer(o.pid);
  }
}

/** Removes the node folders whose owner (by name) is dead, that no record still names and no running process works in. */
function removeDeadOwnersNodeDirs(): void {
  let names: string[];
  try {
    names = readdirSync(nodesDir());
  } catch {
    return;
  }
  const named = new Set(readRecords(false).map((r) => r.dir));
  for (const name of names) {
    const owner = nodeDirOwner(name);
    if (owner === undefined || sameProcessAlive(owner.ownerPid, owner.ownerStart)) continue;
    const dir = join(nodesDir(), name);
    if (named.has(dir) || processesWorkingUnder(dir).length > 0) continue;
    removeNodeDir(dir);
  }
}

function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || /^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * Whether `host:port` is a valkey-server this user's harness started and still runs: a loopback
 * address, a trusted record for that port whose server passes isHarnessProcess, and whose run id
 * equals `runId` (read from the endpoint's `INFO server`). False on any doubt (never throws).
 */
export function isHarnessServer(host: string, port: number, runId: string): boolean {
  if (!isLoopback(host) || !Number.isInteger(port) || typeof runId !== 'string' || runId === '') return false;
  try {
    return readRecords(false).some((r) => r.port === port && r.runId === runId && isHarnessProcess(r));
  } catch {
    return false;
  }
}
