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
  // Seeded moments of a server's start; the seed is printed so that a red run replays its moments.
  // Half are drawn over the owner's start-up (from "starting"), half just after the server's record
  // appeared, while it is still coming up: there the owner's death must leave a live orphan, and the
  // next command's reaper (reapOrphans, which every command runs first) must be the one to end it.
  const SEED = 20_261_207;
  const POINTS = 6;
  it(`SIGKILL of the owner at ${POINTS} seeded moments of a server's start: the next reaper ends the orphan and leaves nothing`, async () => {
    const rng = mulberry32(SEED);
    const moments = Array.from({ length: POINTS }, (_, i) => ({ afterRecord: i % 2 === 1, ms: Math.floor(rng() * (i % 2 === 1 ? 150 : 400)) }));
    const say = (m: (typeof moments)[number]) => `${m.ms} ms after ${m.afterRecord ? "the server's record appeared" : '"starting"'}`;
    console.log(`owner SIGKILLed ${moments.map(say).join('; ')} (seed ${SEED})`);
    let orphansReaped = 0;
    for (const m of moments) {
      const f = fixture('start');
      expect(await nextLine(f.lines)).toBe('starting');
      if (m.afterRecord) await waitUntil('the server to be recorded', async () => listRecords().length > 0, 60_000, 5);
      await new Promise((r) => setTimeout(r, m.ms));
      const recorded = listRecords().map((r) => r.pid);
      f.child.kill('SIGKILL');
      await f.exited;
      // The server outlives its owner (a SIGKILL to the owner alone): a live orphan, recorded.
      const orphans = recorded.filter((pid) => isRunning(pid));
      if (m.afterRecord) expect(orphans, `${say(m)} (seed ${SEED}): the server outlives its owner`).toHaveLength(1);
      // The child of a dead owner execs and records nothing more; give a slow exec its time.
      await new Promise((r) => setTimeout(r, 300));
      const killed = reapOrphans();
      expect(killed, `${say(m)} (seed ${SEED}): the next reaper ends the recorded orphan`).toEqual(expect.arrayContaining(orphans));
      orphansReaped += orphans.length;
      await waitWithin('killed-servers-gone', 'the orphans to be gone', async () => processesWorkingUnder(root).length === 0 && markedOrphans(root).length === 0);
      reapOrphans(); // the records and folders of what is gone now
      expect(leftInRoot(), `${say(m)} (seed ${SEED})`).toEqual(nothingLeft);
    }
    console.log(`${orphansReaped} orphan(s) left by the dead owners, every one ended by the next reaper (seed ${SEED})`);
    expect(orphansReaped, 'the moments after the record each left an orphan to reap').toBeGreaterThanOrEqual(POINTS / 2);
  });

  // A command's worker (the impl layer's) owns servers of its own. With its parent SIGKILLed it stops
  // itself (it watches its parent); one that cannot (busy, or not watching) carries the mark, and the
  // reaper ends it and then, its owner now gone, its servers: one pass left them running.
  for (const watched of [true, false]) {
    it(`a worker with servers whose parent dies by SIGKILL: ${watched ? 'it stops itself and its servers' : 'the next reaper ends it, then its servers'}`, async () => {
      const f = fixture(watched ? 'parent' : 'parent-unwatched');
      const { worker, servers } = JSON.parse(await nextLine(f.lines)) as { worker: number; servers: number[] };
      expect(servers).toHaveLength(1);
      f.child.kill('SIGKILL');
      await f.exited;
      if (watched) {
        await waitWithin('verify-orphan-stage-stop', 'the worker and its server to stop themselves', async () => [worker, ...servers].every((p) => !isRunning(p)));
      } else {
        expect(
          [worker, ...servers].every((p) => isRunning(p)),
          'nothing stops an unwatched worker but the reaper',
        ).toBe(true);
        expect(reapOrphans().sort()).toEqual([worker, ...servers].sort());
        await waitWithin('killed-servers-gone', 'the worker and its server to be gone', async () => [worker, ...servers].every((p) => !isRunning(p)));
      }
      reapOrphans(); // the records and folders of what is gone now
      expect(leftInRoot()).toEqual(nothingLeft);
    });
  }

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
