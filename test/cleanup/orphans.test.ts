/**
 * Nothing ours is ever running unrecorded and unmarked, and the reaper finds what a dead owner left
 * from the process table as well as from the records, never touching a process without the
 * harness's mark. Every test has its own registry root: only its own children can reach it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OWNER_MARK_ENV, markedOrphans, readMark } from '../../src/core/owner-mark.js';
import { processesWorkingUnder } from '../../src/core/process-table.js';
import { projectRoot } from '../../src/core/project-root.js';
import { mulberry32 } from '../../src/core/random.js';
import { ownedTempDir, removeTempDir } from '../../src/core/temp-dir.js';
import { valkeyBinary } from '../../src/valkey/binary.js';
import { freeLoopbackPort } from '../../src/valkey/ports.js';
import { ensureHarnessRoot, isRunning, listRecords, nodesDir, reapOrphans } from '../../src/valkey/registry.js';
import { waitUntil } from '../../src/valkey/wait.js';
import { waitWithin } from '../support/bounds.js';

const FIXTURE = join(projectRoot, 'test/cleanup/fixtures/start-racing.mts');
const SLOW_SERVER = join(projectRoot, 'test/cleanup/fixtures/slow-valkey-server.pl');

let root: string;
let saved: string | undefined;
const children: ChildProcess[] = [];

beforeEach(() => {
  saved = process.env.FENCECHECK_REGISTRY_DIR;
  root = ownedTempDir('orphans-root');
  process.env.FENCECHECK_REGISTRY_DIR = root;
});

afterEach(async () => {
  for (const c of children.splice(0)) {
    if (c.exitCode !== null || c.signalCode !== null) continue;
    const gone = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await gone;
  }
  reapOrphans();
  if (saved === undefined) delete process.env.FENCECHECK_REGISTRY_DIR;
  else process.env.FENCECHECK_REGISTRY_DIR = saved;
  removeTempDir(root);
});

function fixture(mode: string, env: NodeJS.ProcessEnv = {}): { child: ChildProcess; lines: AsyncIterator<string>; exited: Promise<unknown> } {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, mode], {
    cwd: projectRoot,
    stdio: ['ignore', 'pipe', 'ignore'],
    detached: true, // its own group: only what we send reaches it
    env: { ...process.env, FENCECHECK_REGISTRY_DIR: root, ...env },
  });
  children.push(child);
  const exited = new Promise((r) => child.once('exit', r));
  return { child, lines: createInterface({ input: child.stdout! })[Symbol.asyncIterator](), exited };
}

async function nextLine(lines: AsyncIterator<string>): Promise<string> {
  const r = await lines.next();
  if (r.done) throw new Error('the fixture ended without a line');
  return r.value;
}

/** What is left of the root: processes working in it or carrying its mark, records, node folders. */
function leftInRoot(): { working: number[]; marked: number[]; records: number[]; folders: string[] } {
  return {
    working: processesWorkingUnder(root),
    marked: markedOrphans(root).map((o) => o.pid),
    records: listRecords().map((r) => r.pid),
    folders: existsSync(nodesDir()) ? readdirSync(nodesDir()) : [],
  };
}

const nothingLeft = { working: [], marked: [], records: [], folders: [] };

describe('no server of ours runs unrecorded', () => {
  // A server spawned while a signal ends its owner is killed at once. It used to be killed only if
  // /proc already showed it in its --dir: one spawned a moment ago (slow to exec, here 400 ms as on a
  // loaded machine) was not, while its record and folder were dropped: a server ours, unrecorded.
  it('a server started while a signal ends its owner is never seen running without its record', async () => {
    const f = fixture('stopping', { FENCECHECK_VALKEY_SERVER: SLOW_SERVER });
    const { late, unrecorded } = JSON.parse(await nextLine(f.lines)) as { late: number[] | string; unrecorded: number[] };
    await f.exited;
    expect(typeof late, 'the topology started as if nothing were stopping').toBe('string');
    expect(unrecorded, 'processes with a --dir in our node folder, running, not recorded').toEqual([]);
  });
});

describe('the reaper finds what a dead owner left, and only that', () => {
  // The seed is printed so that a red run replays its moments.
  const SEED = 20261207;
  const POINTS = 4;
  it(`SIGKILL of the owner at ${POINTS} seeded moments of a server's start: the next reaper leaves nothing`, async () => {
    const rng = mulberry32(SEED);
    const moments = Array.from({ length: POINTS }, () => Math.floor(rng() * 400));
    console.log(`owner SIGKILLed ${moments.join(', ')} ms after "starting" (seed ${SEED})`);
    for (const ms of moments) {
      const f = fixture('start');
      expect(await nextLine(f.lines)).toBe('starting');
      await new Promise((r) => setTimeout(r, ms));
      f.child.kill('SIGKILL');
      await f.exited;
      // The child of a dead owner execs and records nothing more; give a slow exec its time.
      await new Promise((r) => setTimeout(r, 300));
      reapOrphans();
      await waitWithin('killed-servers-gone', 'the orphans to be gone', async () => processesWorkingUnder(root).length === 0 && markedOrphans(root).length === 0);
      reapOrphans(); // the records and folders of what is gone now
      expect(leftInRoot(), `SIGKILL ${ms} ms after "starting" (seed ${SEED})`).toEqual(nothingLeft);
    }
  });

  it('any harness-owned child (not a server) and temporary folder: gone with their owner on a signal, reaped after a SIGKILL', async () => {
    for (const sig of ['SIGTERM', 'SIGKILL'] as const) {
      const f = fixture('helper');
      const { pid, dir } = JSON.parse(await nextLine(f.lines)) as { pid: number; dir: string };
      expect(readMark(pid)?.ownerPid).toBe(f.child.pid);
      f.child.kill(sig);
      await f.exited;
      if (sig === 'SIGKILL') {
        expect(isRunning(pid), 'an orphan now: nothing but the reaper can end it').toBe(true);
        expect(existsSync(dir), 'no end hook ran: the folder is still there').toBe(true);
        expect(reapOrphans()).toEqual([pid]);
      }
      await waitWithin('killed-servers-gone', 'the helper to be gone', async () => !isRunning(pid));
      expect(existsSync(dir), `${sig}: the owner's temporary folder`).toBe(false);
    }
  });

  async function plainServer(dir: string, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
    const port = await freeLoopbackPort();
    const child = spawn(valkeyBinary().path, ['--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--save', '', '--appendonly', 'no', '--set-proc-title', 'no'], { stdio: 'ignore', env });
    children.push(child);
    await waitUntil('the planted server to work in its folder', async () => processesWorkingUnder(dir).includes(child.pid!), 15_000);
    return child;
  }

  /** A node folder named as one of a dead owner's (makeNodeDir's form). */
  function deadOwnersFolder(): string {
    ensureHarnessRoot();
    const dir = join(nodesDir(), `6379-o999999999.1-planted`);
    mkdirSync(dir, { mode: 0o700 });
    return dir;
  }

  it("a valkey-server without the mark, in a dead owner's node folder: left alone, and its folder kept", async () => {
    const dir = deadOwnersFolder();
    const env = { ...process.env };
    delete env[OWNER_MARK_ENV];
    const server = await plainServer(dir, env);
    expect(readMark(server.pid!)).toBeUndefined();
    expect(reapOrphans()).toEqual([]);
    expect(isRunning(server.pid!)).toBe(true);
    expect(existsSync(dir)).toBe(true);
  });

  it('a process with the mark of a dead owner and no record: reaped from the process table, its folder removed', async () => {
    const dir = deadOwnersFolder();
    const server = await plainServer(dir, { ...process.env, [OWNER_MARK_ENV]: `999999999:1:${root}` });
    expect(listRecords()).toEqual([]);
    expect(reapOrphans()).toEqual([server.pid]);
    expect(isRunning(server.pid!)).toBe(false);
    expect(existsSync(dir)).toBe(false);
  });

  it('the mark of another root, or of a live owner: left alone', async () => {
    const other = join(root, 'elsewhere');
    const a = await plainServer(deadOwnersFolder(), { ...process.env, [OWNER_MARK_ENV]: `999999999:1:${other}` });
    expect(reapOrphans()).toEqual([]);
    expect(isRunning(a.pid!)).toBe(true);
    const b = await plainServer(ownedTempDir('orphans-live'), { ...process.env, [OWNER_MARK_ENV]: `${process.pid}::${root}` });
    expect(reapOrphans()).toEqual([]);
    expect(isRunning(b.pid!)).toBe(true);
  });
});
