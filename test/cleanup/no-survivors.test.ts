import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';
import { isAlive, listRecords, reapOrphans } from '../../src/valkey/registry.js';
import { waitUntil } from '../../src/valkey/wait.js';

const FIXTURE = join(projectRoot, 'test/cleanup/fixtures/start-and-wait.mts');

/** Starts the fixture in its own process group (like a terminal job) and reads the server PIDs it started. */
async function startChild(mode = 'wait'): Promise<{ child: ChildProcess; pids: number[] }> {
  // `--import tsx` keeps it one process, so the owner PID recorded is the PID we kill.
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, mode], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`fixture exited early (${code})`)));
  });
  const pids = (JSON.parse(line) as { pids: number[] }).pids;
  expect(pids).toHaveLength(2);
  expect(pids.every(isAlive)).toBe(true);
  return { child, pids };
}

const exited = (child: ChildProcess) => new Promise<void>((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', () => r())));
const allDead = (pids: number[]) => waitUntil('every valkey-server to be gone', async () => pids.every((p) => !isAlive(p)), 15_000);

describe('no valkey-server outlives the process that started it', () => {
  it('SIGINT to the owner process alone: its handler kills the servers by PID', async () => {
    const { child, pids } = await startChild();
    process.kill(child.pid!, 'SIGINT');
    await exited(child);
    await allDead(pids);
    expect(listRecords().filter((r) => pids.includes(r.pid))).toEqual([]);
  });

  it('Ctrl-C (SIGINT to the whole process group): nothing survives', async () => {
    const { child, pids } = await startChild();
    process.kill(-child.pid!, 'SIGINT');
    await exited(child);
    await allDead(pids);
  });

  it('SIGTERM: nothing survives', async () => {
    const { child, pids } = await startChild();
    process.kill(child.pid!, 'SIGTERM');
    await exited(child);
    await allDead(pids);
  });

  it('an uncaught exception: the exit hook kills the servers', async () => {
    const { child, pids } = await startChild('crash');
    await exited(child);
    expect(child.exitCode).not.toBe(0);
    await allDead(pids);
  });

  it('SIGKILL leaves orphans (no handler can run); the reaper finds and kills them', async () => {
    const { child, pids } = await startChild();
    process.kill(child.pid!, 'SIGKILL');
    await exited(child);
    // The servers really are orphans now: this is what the reaper is for.
    expect(pids.filter(isAlive)).toEqual(pids);
    const killed = reapOrphans();
    expect([...killed].sort()).toEqual(expect.arrayContaining([...pids].sort()));
    await allDead(pids);
    expect(listRecords().filter((r) => pids.includes(r.pid))).toEqual([]);
  });
});
