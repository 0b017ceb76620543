/**
 * The check at the end of every test run (test/cleanup/global-setup.ts) fails the run when something
 * is left behind. Proven here on a nested vitest run whose one test leaves, on purpose, a
 * `fencecheck-*` folder (plain mkdtemp) or a valkey-server the harness does not know (own process
 * group, no record); the control leaves only folders made with ownedTempDir, and passes.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { isRunning } from '../../src/valkey/registry.js';

const VITEST = join(projectRoot, 'node_modules/vitest/vitest.mjs');

function nestedRun(leak: string) {
  const r = spawnSync(process.execPath, [VITEST, 'run', '--config', 'test/cleanup/fixtures/vitest.leak.config.ts'], {
    cwd: projectRoot,
    encoding: 'utf8',
    timeout: 300_000,
    env: { ...process.env, LEAK: leak, FENCECHECK_VALKEY_PROVIDER: 'native' },
  });
  return { code: r.status, signal: r.signal, stderr: r.stderr, out: `${r.stdout}\n${r.stderr}` };
}

describe('the end-of-run leak check', () => {
  it('control: folders made with ownedTempDir (never removed by the test itself) leave the run green', () => {
    const r = nestedRun('');
    expect(r.out).toMatch(/1 passed/);
    expect(r.stderr).not.toMatch(/left things behind/);
    expect(r.code).toBe(0);
  });

  it('the directory of a run interrupted before its teardown is removed by the next run', () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const stale = join(tmpdir(), `fencecheck-suite-${dead.stdout}-interrupted`); // the nested run's tmpdir is ours
    mkdirSync(join(stale, 'fencecheck-trace-abc'), { recursive: true });
    writeFileSync(join(stale, 'fencecheck-trace-abc', 'm1.json'), '{}');
    const r = nestedRun('');
    expect(r.stderr).toContain(`removed 1 temporary directory of interrupted test runs: ${stale}`);
    expect(existsSync(stale)).toBe(false);
    expect(r.code).toBe(0);
  });

  it('a fencecheck-* folder left on purpose fails the run with exit 1, naming the folder', () => {
    const r = nestedRun('folder');
    expect(r.out).toMatch(/1 passed/); // the test itself passed: only the check fails the run
    expect(r.stderr).toMatch(/the test run left things behind \(the run fails\):\n {2}- temporary entry not removed: \S+\/fencecheck-left-on-purpose-\w+ /);
    expect(r.stderr).not.toMatch(/leak-check-owned/);
    expect(r.code).toBe(1);
  });

  it('a valkey-server left running fails the run with exit 1, and is killed', () => {
    const r = nestedRun('server');
    const m = /valkey-server still running: pid (\d+), working in \S+\/server-left-on-purpose-\w+ \(killed now\)/.exec(r.stderr);
    expect(m, r.stderr).not.toBeNull();
    expect(r.code).toBe(1);
    expect(isRunning(Number(m![1]))).toBe(false);
  });
});
