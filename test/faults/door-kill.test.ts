/**
 * A cluster node SIGKILLed under `props --topology door`: runFencingSuite must come back with a
 * fault (notRun) within seconds — not a counterexample, not a wait for some stage timeout — and the
 * process must then exit on its own (no client left reconnecting). Runs in a child process with a
 * hard timeout, so a leak shows as a timeout instead of hanging this test.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { expectWithin, hardLimitMs } from '../support/bounds.js';

const FIXTURE = resolve(projectRoot, 'test/faults/fixtures/door-kill.ts');
const HARD_TIMEOUT_MS = hardLimitMs('door-kill-fault') + hardLimitMs('door-kill-exit');

// Early (before the first door crossing, as a run starts) and later (in the middle of the runs).
it.each([1500, 5000])(
  'a cluster node killed %i ms into the door runs: a fault within seconds, and the process exits by itself',
  async (killAfterMs) => {
    const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
      cwd: projectRoot,
      env: { ...process.env, FENCECHECK_VALKEY_URL: '', FENCECHECK_VALKEY_CLUSTER: '', DOOR_KILL_AFTER_MS: String(killAfterMs) },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    let doneAt = 0;
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => {
      stderr += b.toString();
      if (!doneAt && /^done at \d+/m.test(stderr)) doneAt = Date.now();
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, HARD_TIMEOUT_MS);
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    const exitedAt = Date.now();
    clearTimeout(timer);
    expect(timedOut, `the child did not exit by itself (a client kept it alive?)\n${stdout}\n${stderr.slice(-3000)}`).toBe(false);
    expect(code, stderr.slice(-3000)).toBe(0);
    const out = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
      returned: boolean;
      passed?: boolean;
      notRun?: { topology: string; fault: { kind: string; reason: string } } | null;
      failed?: unknown;
      afterKillMs: number | null;
    };
    expect(out.returned, JSON.stringify(out)).toBe(true);
    expect(out.passed).toBe(false);
    expect(out.failed, JSON.stringify(out)).toBeNull();
    expect(out.notRun?.topology).toBe('door');
    expect(out.notRun?.fault.kind).toMatch(/connection-lost|server-gone|timeout|cluster-down/);
    expect(out.afterKillMs, stderr.slice(-2000)).not.toBeNull();
    expectWithin('door-kill-fault', out.afterKillMs!);
    // Nothing left running: the child exits promptly once its work is done.
    expectWithin('door-kill-exit', exitedAt - doneAt, stderr.slice(-1500));
    expect(stdout + stderr).not.toMatch(/replay:|--path|shrunk commands/);
  },
  HARD_TIMEOUT_MS + 10_000,
);
