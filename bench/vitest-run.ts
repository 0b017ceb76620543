import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '../src/core/project-root.js';

const VITEST = join(projectRoot, 'node_modules/vitest/vitest.mjs');

/**
 * One vitest command (`run FILE…`, `list …`) of the checkout, its output collected. In this
 * process's group: Ctrl-C reaches vitest too, and its globalSetup removes what the files left.
 */
export function runVitest(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; out: string; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [VITEST, ...args], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => resolve({ code, out, ms: performance.now() - t0 }));
  });
}
