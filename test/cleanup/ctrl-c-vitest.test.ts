import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';
import { isAlive } from '../../src/valkey/registry.js';
import { waitUntil } from '../../src/valkey/wait.js';

it('Ctrl-C on a vitest run whose test holds topologies leaves no valkey-server running', async () => {
  const pidFile = join(mkdtempSync(join(tmpdir(), 'fencecheck-ctrlc-')), 'pids.json');
  const vitest = join(projectRoot, 'node_modules/vitest/vitest.mjs');
  // Its own process group, as a terminal job: Ctrl-C is SIGINT to the whole group.
  const run = spawn(process.execPath, [vitest, 'run', '--config', 'test/cleanup/fixtures/vitest.fixture.config.ts'], {
    cwd: projectRoot,
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, FENCECHECK_PID_FILE: pidFile, FENCECHECK_VALKEY_PROVIDER: 'native' },
  });
  const exited = new Promise<void>((r) => run.once('exit', () => r()));
  try {
    await waitUntil('the fixture to start its topologies', async () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').length > 0, 90_000, 200);
    const pids = JSON.parse(readFileSync(pidFile, 'utf8')) as number[];
    expect(pids).toHaveLength(2);
    expect(pids.every(isAlive)).toBe(true);
    process.kill(-run.pid!, 'SIGINT');
    await exited;
    await waitUntil('every valkey-server of the interrupted run to be gone', async () => pids.every((p) => !isAlive(p)), 15_000);
  } finally {
    if (run.exitCode === null && run.signalCode === null) process.kill(-run.pid!, 'SIGKILL');
  }
});
