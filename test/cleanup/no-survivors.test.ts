import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { isAlive, isRunning, listRecords, reapOrphans, serversWorkingUnder } from '../../src/valkey/registry.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';
import { boundMs, recordTiming, waitWithin } from '../support/bounds.js';

const FIXTURE = join(projectRoot, 'test/cleanup/fixtures/start-and-wait.mts');

/*
 * What makes these tests fail when the cleanup does not run:
 * - The child runs in its own process group and its servers share THAT group, not ours; a signal
 *   sent to the child's PID alone does not reach them. Only the child's own handler can stop them.
 * - The child uses a private registry root (FENCECHECK_REGISTRY_DIR), so no other harness process
 *   (another test file, another engineer's suite: every topology start reaps orphans) can find and
 *   reap its servers once it is gone. Nothing else kills them.
 * - A process killed by a signal runs no 'exit' hook: when the handler re-raises, it alone did it.
 * Disable the kill in src/valkey/hygiene.ts's signal handler and the signal tests go red.
 */
let root: string;
const savedRoot = process.env.FENCECHECK_REGISTRY_DIR;
beforeAll(() => {
  root = ownedTempDir('cleanup'); // mode 0700
  // This file's own registry calls (listRecords, reapOrphans) read the children's private root.
  process.env.FENCECHECK_REGISTRY_DIR = root;
});
afterAll(() => {
  reapOrphans(); // anything a red test left behind, verified and by PID
  if (savedRoot === undefined) delete process.env.FENCECHECK_REGISTRY_DIR;
  else process.env.FENCECHECK_REGISTRY_DIR = savedRoot;
  rmSync(root, { recursive: true, force: true });
});

type Provider = 'native' | 'default';

/** Starts the fixture in its own process group (like a terminal job) and reads the server PIDs it started. */
async function startChild(mode = 'wait', provider: Provider = 'native'): Promise<{ child: ChildProcess; pids: number[]; sigintListeners: number }> {
  // `--import tsx` keeps it one process, so the owner PID recorded is the PID we kill.
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, mode], {
    cwd: projectRoot,
    stdio: ['ignore', 'pipe', 'ignore'],
    detached: true,
    env: childEnv(provider),
  });
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`fixture exited early (${code})`)));
  });
  const { pids, sigintListeners } = JSON.parse(line) as { pids: number[]; sigintListeners: number };
  expect(pids).toHaveLength(2);
  expect(pids.every(isAlive)).toBe(true);
  // The servers are in the child's process group (it leads its own), not in ours.
  expect(pids.map(processGroup)).toEqual([child.pid, child.pid]);
  expect(processGroup(child.pid!)).not.toBe(processGroup(process.pid));
  return { child, pids, sigintListeners };
}

function childEnv(provider: Provider): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, FENCECHECK_REGISTRY_DIR: root, FIXTURE_PROVIDER: provider };
  if (provider === 'default') {
    // As a command run from a shell: no provider chosen, and no probe answer inherited from the
    // vitest globalSetup (which would spare the child from loading the container library).
    delete env.FENCECHECK_VALKEY_PROVIDER;
    delete env.FENCECHECK_DOCKER_PROBE;
  }
  return env;
}

function processGroup(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

/** Dead, or a zombie waiting for init to reap it (kill(pid, 0) still succeeds on a zombie). */
const gone = (pid: number): boolean => !isRunning(pid);

const exited = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    const t0 = performance.now();
    const done = () => {
      recordTiming('owner-signal-stop', performance.now() - t0);
      resolve({ code: child.exitCode, signal: child.signalCode });
    };
    if (child.exitCode !== null || child.signalCode !== null) return done();
    const ms = boundMs('owner-signal-stop');
    const t = setTimeout(() => reject(new Error(`the fixture (pid ${child.pid}) did not end within ${ms} ms of the signal`)), ms);
    child.once('exit', () => {
      clearTimeout(t);
      done();
    });
  });
// Nothing but the child could have killed them (see above), so a short wait is enough.
const allDead = (pids: number[]) => waitWithin('servers-gone-after-owner', 'every valkey-server to be gone', async () => pids.every(gone));

/** Runs a test body; whatever happens, the child and its servers are gone afterwards. */
async function withChild(mode: string, provider: Provider, body: (c: Awaited<ReturnType<typeof startChild>>) => Promise<void>): Promise<void> {
  const c = await startChild(mode, provider);
  try {
    await body(c);
  } finally {
    if (c.child.exitCode === null && c.child.signalCode === null) process.kill(-c.child.pid!, 'SIGKILL');
    await exited(c.child).catch(() => {});
    reapOrphans();
  }
}

/** The child ended with the signal's meaning: killed by it, or exit code 128 + its number. */
const endedBy = (r: { code: number | null; signal: NodeJS.Signals | null }, sig: 'SIGINT' | 'SIGTERM' | 'SIGHUP') => r.signal === sig || r.code === { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 }[sig];

describe('no valkey-server outlives the process that started it', () => {
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    it(`${sig} to the owner process alone: its handler kills the servers by PID, and the owner ends by ${sig}`, async () => {
      await withChild('wait', 'native', async ({ child, pids, sigintListeners }) => {
        expect(sigintListeners).toBe(1); // the handler alone: it re-raises, no exit hook runs
        process.kill(child.pid!, sig);
        const r = await exited(child);
        expect(r.signal).toBe(sig);
        await allDead(pids);
        expect(listRecords().filter((rec) => pids.includes(rec.pid))).toEqual([]);
      });
    });
  }

  // A step that starts servers while a signal is ending the process (its previous servers just
  // died, a cluster matrix row moves on): they are killed as soon as they are spawned, never left behind.
  it('servers started while a signal ends the process are killed at once', async () => {
    await withChild('stopping', 'native', async ({ child }) => {
      const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
      const { late } = JSON.parse(line) as { late: number[] | string };
      expect(typeof late, 'the topology started as if nothing were stopping').toBe('string');
      expect(
        listRecords()
          .filter((rec) => isRunning(rec.pid))
          .map((r) => r.pid)
          .filter((p) => !child.pid || p !== child.pid),
      ).toHaveLength(2); // the first two only
      expect(serversWorkingUnder(root).length, "valkey-server processes running in the fixture's registry root").toBe(2);
    });
  });

  // verify stops a stage's process group by more than one path: the signal comes twice. The owner
  // must still reap the servers it killed before it ends; a parent that dies first leaves them as
  // zombies of init, still in the process table for a second or two after the command returned.
  it('the signal twice in a row: the owner reaps its servers before it ends (none left, not even a zombie)', async () => {
    await withChild('wait', 'native', async ({ child, pids }) => {
      process.kill(child.pid!, 'SIGTERM');
      process.kill(child.pid!, 'SIGTERM');
      const r = await exited(child);
      expect(r.signal).toBe('SIGTERM');
      expect(
        pids.filter((p) => isAlive(p)),
        'servers still in the process table when their owner ended',
      ).toEqual([]);
    });
  });

  // With the default provider the container probe loads signal-exit, a second listener
  // that also waits for a sole-listener turn; the process must still end by the signal (130 / 143
  // in a shell), not live on with its servers killed.
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    it(`default provider (another library listens too): ${sig} still ends the owner by ${sig} and kills its servers`, async () => {
      await withChild('wait', 'default', async ({ child, pids, sigintListeners }) => {
        expect(sigintListeners).toBeGreaterThan(1);
        process.kill(child.pid!, sig);
        const r = await exited(child);
        expect(endedBy(r, sig), `exit ${JSON.stringify(r)}`).toBe(true);
        await allDead(pids);
        expect(listRecords().filter((rec) => pids.includes(rec.pid))).toEqual([]);
      });
    });
  }

  it('Ctrl-C (SIGINT to the whole process group): nothing survives', async () => {
    // The servers get the signal directly too; this is the user's view, not a test of the handler.
    await withChild('wait', 'native', async ({ child, pids }) => {
      process.kill(-child.pid!, 'SIGINT');
      const r = await exited(child);
      expect(endedBy(r, 'SIGINT')).toBe(true);
      await allDead(pids);
    });
  });

  it('an uncaught exception: the exit hook kills the servers', async () => {
    await withChild('crash', 'native', async ({ child, pids }) => {
      const r = await exited(child);
      expect(r.code).not.toBe(0);
      await allDead(pids);
      expect(listRecords().filter((rec) => pids.includes(rec.pid))).toEqual([]);
    });
  });

  it('SIGKILL leaves orphans (no handler can run); the reaper finds and kills them', async () => {
    await withChild('wait', 'native', async ({ child, pids }) => {
      process.kill(child.pid!, 'SIGKILL');
      await exited(child);
      // The servers really are orphans now: nothing else can reach them. This is what the reaper is for.
      await new Promise((r) => setTimeout(r, 500));
      expect(pids.filter(gone)).toEqual([]);
      const killed = reapOrphans();
      expect([...killed].sort()).toEqual([...pids].sort());
      await allDead(pids);
      expect(listRecords().filter((rec) => pids.includes(rec.pid))).toEqual([]);
    });
  });
});
