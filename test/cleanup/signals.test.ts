/**
 * A signal never makes a command print "crashed" or a stack: an error that reaches the
 * CLI's main() because the signal's end killed the command's servers under a waiting request is the
 * end's doing. The command ends by the signal (130 / 143 / 129 in a shell), leaving no server and no
 * temporary folder. The fixture is the real main() with one more command waiting in BLPOP on a real
 * node; the tight stop times are printed by `npm run bench -- stability`, not asserted here.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';
import { isRunning } from '../../src/valkey/registry.js';
import { reapOrphansIn } from '../support/registry-root.js';
import { boundMs, expectWithin, waitWithin } from '../support/bounds.js';

const FIXTURE = join(projectRoot, 'test/cleanup/fixtures/blocked-command.mts');

// A private registry root: only the child's own end can stop its servers.
const root = ownedTempDir('signals-root');
afterAll(() => void reapOrphansIn(root));

interface Ended {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
}

async function startBlocked(): Promise<{ child: ChildProcess; pids: number[]; dir: string; ended: Promise<Ended> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
    cwd: projectRoot,
    detached: true, // its own process group, as a terminal job: Ctrl-C is SIGINT to the whole group
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FENCECHECK_REGISTRY_DIR: root },
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const ended = new Promise<Ended>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stderr })));
  const line = await Promise.race([
    new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve)),
    ended.then((e) => Promise.reject(new Error(`the fixture ended before it was ready: ${JSON.stringify(e)}`))),
  ]);
  const { pids, dir } = JSON.parse(line) as { pids: number[]; dir: string };
  expect(pids.every(isRunning)).toBe(true);
  expect(existsSync(dir)).toBe(true);
  return { child, pids, dir, ended };
}

const CODE = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

describe('a signal ends a command without a crash report', () => {
  for (const [sig, group] of [
    ['SIGTERM', false],
    ['SIGINT', false],
    ['SIGHUP', false],
    ['SIGINT', true], // Ctrl-C: the node gets it too, and may close the socket before our handler runs
  ] as const) {
    it(`${sig}${group ? ' to the whole process group (Ctrl-C)' : ''} while a request waits on the node: no "crashed", no stack, nothing left`, async () => {
      const { child, pids, dir, ended } = await startBlocked();
      try {
        const t0 = performance.now();
        process.kill(group ? -child.pid! : child.pid!, sig);
        const bound = boundMs('command-signal-stop');
        const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not ended ${bound} ms after ${sig}`)), bound).unref());
        const r = await Promise.race([ended, timeout]);
        const stopMs = performance.now() - t0;
        expect(r.stderr).not.toMatch(/crashed/);
        expect(r.stderr).not.toMatch(/^\s+at /m);
        expect(r.stderr).toContain(`fencecheck blocked: stopped by ${sig} (exit ${CODE[sig]})`);
        expect(r.signal === sig || r.code === CODE[sig], `ended with ${JSON.stringify({ code: r.code, signal: r.signal })}`).toBe(true);
        expectWithin('command-signal-stop', stopMs);
        await waitWithin('servers-gone-after-owner', 'the node to be gone', async () => pids.every((p) => !isRunning(p)));
        expect(existsSync(dir), `temporary folder ${dir} left`).toBe(false);
      } finally {
        if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
      }
    });
  }
});

describe('a command that owns nothing to release', () => {
  // The init limiter's tour owns no Valkey and no temporary folder (its servers are in-process): the
  // signal must still be taken as the end, said in one line, rather than end it by its default action.
  it('Ctrl-C still says it stopped, and ends by the signal', async () => {
    const child = spawn(process.execPath, [join(projectRoot, 'bin/fencecheck.mjs'), 'conform', '--system', 'init-limiter'], { cwd: projectRoot, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const ended = new Promise<Ended>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stderr })));
    try {
      await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
      process.kill(-child.pid!, 'SIGINT');
      const r = await ended;
      expect(r.stderr).toContain('fencecheck conform: stopped by SIGINT (exit 130)');
      expect(r.stderr).not.toMatch(/crashed|^\s+at /m);
      expect(r.signal === 'SIGINT' || r.code === 130, JSON.stringify({ code: r.code, signal: r.signal })).toBe(true);
    } finally {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    }
  });
});
