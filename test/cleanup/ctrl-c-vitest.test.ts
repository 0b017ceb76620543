import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { isAlive } from '../../src/valkey/registry.js';
import { reapOrphansIn } from '../support/registry-root.js';
import { waitUntil } from '../../src/valkey/wait.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';
import { waitWithin } from '../support/bounds.js';

it('Ctrl-C on a vitest run whose test holds topologies leaves no valkey-server running', async () => {
  const dir = ownedTempDir('ctrlc');
  const pidFile = join(dir, 'pids.json');
  // A private registry root (mode 0700, from mkdtemp): no other harness process's reaper can find
  // these servers, so only the interrupted run itself can have stopped them.
  const root = ownedTempDir('ctrlc-root');
  // The interrupted run's own temporary directory (its teardown never runs) lies in a folder of ours.
  const runTmp = ownedTempDir('ctrlc-tmp');
  const vitest = join(projectRoot, 'node_modules/vitest/vitest.mjs');
  // Its own process group, as a terminal job: Ctrl-C is SIGINT to the whole group.
  const run = spawn(process.execPath, [vitest, 'run', '--config', 'test/cleanup/fixtures/vitest.fixture.config.ts'], {
    cwd: projectRoot,
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, TMPDIR: runTmp, FENCECHECK_PID_FILE: pidFile, FENCECHECK_VALKEY_PROVIDER: 'native', FENCECHECK_REGISTRY_DIR: root },
  });
  const exited = new Promise<void>((r) => run.once('exit', () => r()));
  try {
    await waitUntil('the fixture to start its topologies', async () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').length > 0, 90_000, 200);
    const pids = JSON.parse(readFileSync(pidFile, 'utf8')) as number[];
    expect(pids).toHaveLength(2);
    expect(pids.every(isAlive)).toBe(true);
    process.kill(-run.pid!, 'SIGINT');
    await exited;
    await waitWithin('killed-servers-gone', 'every valkey-server of the interrupted run to be gone', async () => pids.every((p) => !isAlive(p)));
  } finally {
    if (run.exitCode === null && run.signalCode === null) process.kill(-run.pid!, 'SIGKILL');
    reapOrphansIn(root); // whatever a red run left behind, verified and by PID
    rmSync(root, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
});
