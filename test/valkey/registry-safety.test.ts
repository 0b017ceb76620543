// "Never destroy what is not ours": the process registry must not let anyone make
// `fencecheck topology reap` (or any topology start, which reaps first) delete a folder or kill a
// process the harness did not start. Every test runs on its own root (FENCECHECK_REGISTRY_DIR).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { valkeyBinary } from '../../src/valkey/binary.js';
import { ValkeyUnavailableError } from '../../src/valkey/errors.js';
import { startTopology } from '../../src/valkey/index.js';
import { freeLoopbackPort } from '../../src/valkey/ports.js';
import { ensureHarnessRoot, harnessTempRoot, isAlive, isHarnessServer, listRecords, makeNodeDir, nodesDir, reapOrphans, registryDir, type ServerRecord } from '../../src/valkey/registry.js';
import { waitUntil } from '../../src/valkey/wait.js';
import { OWNER_MARK_ENV } from '../../src/core/owner-mark.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';
import { waitWithin } from '../support/bounds.js';

const CLI = join(projectRoot, 'bin/fencecheck.mjs');
const FIXTURE = join(projectRoot, 'test/cleanup/fixtures/start-and-wait.mts');
const isRoot = process.getuid?.() === 0;

let savedEnv: string | undefined;
let root: string;
const cleanupDirs: string[] = [];
const children: ChildProcess[] = [];
const extraPids: number[] = [];

beforeEach(() => {
  savedEnv = process.env.FENCECHECK_REGISTRY_DIR;
  root = ownedTempDir('regsafety');
  cleanupDirs.push(root);
  process.env.FENCECHECK_REGISTRY_DIR = root;
});

afterEach(async () => {
  if (savedEnv === undefined) delete process.env.FENCECHECK_REGISTRY_DIR;
  else process.env.FENCECHECK_REGISTRY_DIR = savedEnv;
  // Stop what the test started, by PID only.
  await Promise.all(children.splice(0).map(stopChild));
  for (const pid of extraPids.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  for (const d of cleanupDirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGKILL');
  return exited;
}

/** A folder outside the root holding a file nobody may delete. */
function victimDir(): { dir: string; file: string } {
  const dir = ownedTempDir('victim');
  cleanupDirs.push(dir);
  const file = join(dir, 'precious.txt');
  writeFileSync(file, 'not fencecheck’s\n');
  return { dir, file };
}

/** A PID that was just used and is dead now. */
function deadPid(): number {
  const pid = spawnSync('true').pid;
  expect(isAlive(pid)).toBe(false);
  return pid;
}

function record(pid: number, port: number, dir: string, extra: Partial<ServerRecord> = {}): ServerRecord {
  return { pid, ownerPid: deadPid(), port, dir, startedAt: new Date().toISOString(), ...extra };
}

/** Writes a record straight into the registry, as anyone able to write there could. */
function plant(rec: ServerRecord): string {
  ensureHarnessRoot();
  const file = join(registryDir(), `${rec.pid}.json`);
  writeFileSync(file, JSON.stringify(rec));
  return file;
}

/** `sleep 30` dressed up as a valkey-server: its title says "valkey-server 127.0.0.1:PORT". */
async function impostor(port: number, cwd: string): Promise<number> {
  const child = spawn('sleep', ['30'], { argv0: `valkey-server 127.0.0.1:${port}`, cwd, stdio: 'ignore' });
  children.push(child);
  const pid = child.pid!;
  await waitWithin('process-exec', 'sleep to exec', async () => readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('valkey-server'), 10);
  return pid;
}

/**
 * A real valkey-server started by the test itself, as a plain process (not through the harness).
 * `marked` (the default): it carries the harness's mark of this root, naming this (live) test process
 * as its owner so that the process-table reaper leaves it to the record's checks, and only the check
 * a test is about stands between it and the reaper; unmarked, it is a server the harness did not start.
 */
async function plainValkey(dir: string, asUid?: number, marked = true): Promise<{ pid: number; port: number; runId: string }> {
  const port = await freeLoopbackPort();
  const args = ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--set-proc-title', 'no'];
  const env = { ...process.env, ...(marked && { [OWNER_MARK_ENV]: `${process.pid}::${harnessTempRoot()}` }) };
  // As another uid, the server cannot chdir into a folder of ours: it inherits it as its cwd instead
  // (the spawner chdirs before dropping privileges).
  const child =
    asUid === undefined ? spawn(valkeyBinary().path, [...args, '--dir', dir], { stdio: 'ignore', env }) : spawn(valkeyBinary().path, args, { stdio: 'ignore', cwd: dir, uid: asUid, gid: asUid, env });
  children.push(child);
  let runId = '';
  await waitUntil(
    `valkey-server on ${port} to answer`,
    async () => {
      const c = new Redis({ host: '127.0.0.1', port, lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0, enableOfflineQueue: false });
      c.on('error', () => {});
      try {
        await c.connect();
        runId = /^run_id:(\w+)/m.exec(await c.info('server'))?.[1] ?? '';
        return runId !== '';
      } finally {
        c.disconnect();
      }
    },
    15_000,
  );
  return { pid: child.pid!, port, runId };
}

async function runIdOf(port: number): Promise<string> {
  const c = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await c.connect();
    return /^run_id:(\w+)/m.exec(await c.info('server'))?.[1] ?? '';
  } finally {
    c.disconnect();
  }
}

function reapCli(json = true): { code: number | null; killed: number[] | undefined; err: string } {
  const r = spawnSync(process.execPath, [CLI, 'topology', 'reap', ...(json ? ['--json'] : [])], { cwd: projectRoot, encoding: 'utf8', timeout: 60_000, env: { ...process.env } });
  let killed: number[] | undefined;
  try {
    killed = (JSON.parse(r.stdout) as { details: { killed: number[] } }).details.killed;
  } catch {
    killed = undefined;
  }
  return { code: r.status, killed, err: r.stderr };
}

describe('planted records are never acted on', () => {
  it('(a) a record naming a folder outside the root and a live process that is not valkey-server: nothing deleted, nothing killed', async () => {
    const victim = victimDir();
    const port = 6399;
    // The process even has the victim as its working folder and a valkey-server title on the port.
    const sleep = await impostor(port, victim.dir);
    const plantBoth = () => {
      plant(record(sleep, port, victim.dir));
      plant(record(deadPid(), port, victim.dir)); // a "server already gone" whose folder would be cleaned up
    };
    plantBoth();
    expect(reapOrphans()).toEqual([]);
    expect(existsSync(victim.file)).toBe(true);
    expect(isAlive(sleep)).toBe(true);

    plantBoth();
    const cli = reapCli();
    expect(cli.code).toBe(0);
    expect(cli.killed).toEqual([]);
    expect(existsSync(victim.file)).toBe(true);
    expect(isAlive(sleep)).toBe(true);
  });

  it('(a) a process disguised as valkey-server, working in a node folder of ours, is not killed: the executable is checked', async () => {
    const port = 6399;
    const dir = makeNodeDir(port);
    const sleep = await impostor(port, dir);
    plant(record(sleep, port, dir));
    expect(reapOrphans()).toEqual([]);
    expect(isAlive(sleep)).toBe(true);
  });

  it('(b) a real valkey-server the harness did not start, recorded with a dead owner: not killed, its folder kept', async () => {
    const victim = victimDir();
    const v = await plainValkey(victim.dir, undefined, false);
    plant(record(v.pid, v.port, victim.dir, { runId: v.runId }));
    expect(isHarnessServer('127.0.0.1', v.port, v.runId)).toBe(false);
    expect(reapOrphans()).toEqual([]);
    expect(isAlive(v.pid)).toBe(true);
    expect(existsSync(victim.file)).toBe(true);

    plant(record(v.pid, v.port, victim.dir, { runId: v.runId }));
    const cli = reapCli();
    expect(cli.code).toBe(0);
    expect(cli.killed).toEqual([]);
    expect(isAlive(v.pid)).toBe(true);
    expect(existsSync(victim.file)).toBe(true);
    expect(await runIdOf(v.port)).toBe(v.runId);
  });

  it('(b) a real valkey-server recorded with a node folder of ours that is not its working folder: not killed', async () => {
    const victim = victimDir();
    const v = await plainValkey(victim.dir);
    plant(record(v.pid, v.port, makeNodeDir(v.port), { runId: v.runId }));
    expect(isHarnessServer('127.0.0.1', v.port, v.runId)).toBe(false);
    expect(reapOrphans()).toEqual([]);
    expect(isAlive(v.pid)).toBe(true);
    expect(existsSync(victim.file)).toBe(true);
  });

  it('(b) a node folder that is a symlink out of the root: the server is not killed, what the link points to is kept', async () => {
    const victim = victimDir();
    ensureHarnessRoot();
    const link = join(nodesDir(), 'link');
    symlinkSync(victim.dir, link);
    const v = await plainValkey(link); // valkey-server chdirs through the link: its cwd is the victim
    plant(record(v.pid, v.port, link, { runId: v.runId }));
    plant(record(deadPid(), v.port, link));
    expect(reapOrphans()).toEqual([]);
    expect(isAlive(v.pid)).toBe(true);
    expect(existsSync(victim.file)).toBe(true);
  });

  it('a record file that is a symlink (or, as root, not ours) is ignored; the same record as our own file is reaped', async () => {
    const outside = victimDir();
    const dir = makeNodeDir(0);
    const v = await plainValkey(dir);
    const rec = record(v.pid, v.port, dir, { runId: v.runId });
    const target = join(outside.dir, 'rec.json');
    writeFileSync(target, JSON.stringify(rec));
    const file = join(registryDir(), `${v.pid}.json`);
    symlinkSync(target, file);
    expect(isHarnessServer('127.0.0.1', v.port, v.runId)).toBe(false);
    expect(reapOrphans()).toEqual([]);
    expect(isAlive(v.pid)).toBe(true);
    rmSync(file);

    if (isRoot) {
      plant(rec);
      chownSync(file, 65534, 65534);
      expect(isHarnessServer('127.0.0.1', v.port, v.runId)).toBe(false);
      expect(reapOrphans()).toEqual([]);
      expect(isAlive(v.pid)).toBe(true);
      rmSync(file);
    }

    // Our own file, but the port is not the one the server listens on.
    plant({ ...rec, port: v.port === 65535 ? 65534 : v.port + 1 });
    expect(reapOrphans()).toEqual([]);
    expect(isAlive(v.pid)).toBe(true);
    rmSync(file, { force: true });

    // Positive control: every check holds (our file, a valkey-server of ours on the port working in
    // a node folder of ours, dead owner): it is an orphan and is reaped.
    plant(rec);
    expect(isHarnessServer('127.0.0.1', v.port, v.runId)).toBe(true);
    expect(reapOrphans()).toEqual([v.pid]);
    await waitWithin('killed-servers-gone', 'the reaped server to exit', async () => children.every((c) => c.exitCode !== null || c.signalCode !== null));
    expect(existsSync(dir)).toBe(false);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(outside.file)).toBe(true);
  });

  it('a recorded valkey-server that passes every other check but carries no mark of ours: not killed, its folder kept', async () => {
    const dir = makeNodeDir(0);
    const v = await plainValkey(dir, undefined, false);
    plant(record(v.pid, v.port, dir, { runId: v.runId }));
    expect(isHarnessServer('127.0.0.1', v.port, v.runId)).toBe(false);
    expect(reapOrphans()).toEqual([]);
    expect(isAlive(v.pid)).toBe(true);
    expect(existsSync(dir)).toBe(true);
  });

  it.skipIf(!isRoot)('a valkey-server of another uid, on the port, working in a node folder of ours, is not killed', async () => {
    const dir = makeNodeDir(0);
    chmodSync(dir, 0o777); // so that it can open ./dump.rdb there (it has none)
    const v = await plainValkey(dir, 65534);
    expect(readlinkSync(`/proc/${v.pid}/cwd`)).toBe(dir);
    plant(record(v.pid, v.port, dir, { runId: v.runId }));
    expect(isHarnessServer('127.0.0.1', v.port, v.runId)).toBe(false);
    expect(reapOrphans()).toEqual([]);
    expect(isAlive(v.pid)).toBe(true);
  });

  it('a malformed record file of ours is deleted, and nothing it names is touched', () => {
    const victim = victimDir();
    ensureHarnessRoot();
    const bad = join(registryDir(), '12345.json');
    writeFileSync(bad, JSON.stringify({ pid: 54321, ownerPid: deadPid(), port: 1, dir: victim.dir })); // pid does not match its name
    const junk = join(registryDir(), '777.json');
    writeFileSync(junk, '{"pid": 7');
    expect(listRecords()).toEqual([]);
    expect(existsSync(bad)).toBe(false);
    expect(existsSync(junk)).toBe(false);
    expect(existsSync(victim.file)).toBe(true);
  });
});

describe('(c) an unsafe registry root is refused with a clear error, nothing acted on', () => {
  /** A record reapOrphans would act on (a dead server: its node folder is removed) if it trusted the root. */
  function plantDeadServer(): { nodeFile: string; victimFile: string } {
    const dir = makeNodeDir(0);
    const nodeFile = join(dir, 'nodes.conf');
    writeFileSync(nodeFile, 'x');
    plant(record(deadPid(), 1234, dir));
    const victim = victimDir();
    plant(record(deadPid(), 1234, victim.dir));
    return { nodeFile, victimFile: victim.file };
  }

  function expectRefused(path: string, why: RegExp, left: { nodeFile: string; victimFile: string }) {
    expect(() => reapOrphans()).toThrow(ValkeyUnavailableError);
    expect(() => reapOrphans()).toThrow(new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*${why.source}`));
    expect(() => listRecords()).toThrow(ValkeyUnavailableError);
    const cli = reapCli(false);
    expect(cli.code).toBe(2);
    expect(cli.err).toContain(path);
    expect(cli.err).toMatch(why);
    expect(existsSync(left.nodeFile)).toBe(true);
    expect(existsSync(left.victimFile)).toBe(true);
  }

  for (const mode of [0o770, 0o707, 0o750]) {
    it(`a root with mode ${mode.toString(8)}`, async () => {
      const left = plantDeadServer();
      chmodSync(root, mode);
      expectRefused(root, /mode/, left);
      // A topology start reaps first: it refuses too, and starts nothing there.
      await expect(startTopology({ kind: 'standalone' }, { provider: 'native' })).rejects.toThrow(ValkeyUnavailableError);
      expect(isHarnessServer('127.0.0.1', 1234, 'x')).toBe(false);
    });
  }

  it('a registry folder with mode 777 inside a private root', () => {
    const left = plantDeadServer();
    chmodSync(registryDir(), 0o777);
    expectRefused(registryDir(), /mode/, left);
  });

  it('a root that is a symlink (to a folder that would pass every check)', () => {
    const real = join(root, 'real');
    mkdirSync(real, { mode: 0o700 });
    process.env.FENCECHECK_REGISTRY_DIR = real;
    const left = plantDeadServer();
    const link = join(root, 'link');
    symlinkSync(real, link);
    process.env.FENCECHECK_REGISTRY_DIR = link;
    expect(harnessTempRoot()).toBe(link);
    expectRefused(link, /symbolic link/, left);
  });

  it('a nodes/ folder that is a symlink to a private folder elsewhere', () => {
    const left = plantDeadServer(); // its node folder goes with the old nodes/: only its victim is checked
    const elsewhere = ownedTempDir('victim'); // mode 700, ours: it would pass as a folder
    cleanupDirs.push(elsewhere);
    const lookalike = join(elsewhere, '1234-abcdef');
    mkdirSync(lookalike);
    const precious = join(lookalike, 'precious.txt');
    writeFileSync(precious, 'x');
    plant(record(deadPid(), 1234, lookalike));
    plant(record(deadPid(), 1234, join(nodesDir(), '1234-abcdef')));
    rmSync(nodesDir(), { recursive: true });
    symlinkSync(elsewhere, nodesDir());
    expectRefused(nodesDir(), /symbolic link/, { nodeFile: precious, victimFile: left.victimFile });
  });

  it.skipIf(!isRoot)('a root owned by another user', () => {
    const left = plantDeadServer();
    chownSync(root, 65534, 65534);
    expectRefused(root, /owned by uid 65534/, left);
  });
});

describe('(d) the positive control: a real orphan of the harness', () => {
  it('is recorded with its run id, recognised by isHarnessServer, reaped after its owner is SIGKILLed, its folder removed', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'inherit'], detached: true, env: { ...process.env } });
    children.push(child);
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`fixture exited early (${code})`)));
    });
    const pids = (JSON.parse(line) as { pids: number[] }).pids;
    extraPids.push(...pids);
    expect(pids).toHaveLength(2);
    const recs = listRecords().filter((r) => pids.includes(r.pid));
    expect(recs).toHaveLength(2);
    for (const r of recs) {
      expect(r.ownerPid).toBe(child.pid);
      expect(dirname(r.dir)).toBe(nodesDir());
      expect(existsSync(r.dir)).toBe(true);
      expect(r.runId).toMatch(/^[0-9a-f]{40}$/);
      expect(await runIdOf(r.port)).toBe(r.runId);
      expect(isHarnessServer('127.0.0.1', r.port, r.runId!)).toBe(true);
      expect(isHarnessServer('localhost', r.port, r.runId!)).toBe(true);
      expect(isHarnessServer('10.1.2.3', r.port, r.runId!)).toBe(false);
      expect(isHarnessServer('127.0.0.1', r.port, 'f'.repeat(40))).toBe(false);
    }
    // Owner alive: not an orphan, left alone.
    expect(reapOrphans()).toEqual([]);

    await stopChild(child); // SIGKILL: no handler runs, the servers are orphans now
    expect(pids.every(isAlive)).toBe(true);
    expect([...reapOrphans()].sort()).toEqual([...pids].sort());
    await waitWithin('killed-servers-gone', 'the orphans to be gone', async () => pids.every((p) => !isAlive(p)));
    for (const r of recs) {
      expect(existsSync(r.dir)).toBe(false);
      expect(isHarnessServer('127.0.0.1', r.port, r.runId!)).toBe(false);
    }
    expect(listRecords().filter((r) => pids.includes(r.pid))).toEqual([]);
  });
});
