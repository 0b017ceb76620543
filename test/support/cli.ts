/** Runs the real CLI (`node bin/fencecheck.mjs …`) in a child process, with only the endpoint variables a test names. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '../../src/core/project-root.js';

export interface CliRun {
  readonly code: number | null;
  readonly out: string;
  readonly err: string;
  readonly ms: number;
}

/** Variables a test must set itself when it wants them (never inherited from the test's own environment). */
const ENDPOINT_VARS = [
  'FENCECHECK_VALKEY_URL',
  'FENCECHECK_VALKEY_CLUSTER',
  'FENCECHECK_ALLOW_DESTRUCTIVE',
  'FENCECHECK_TLS_CA',
  'FENCECHECK_TLS_CERT',
  'FENCECHECK_TLS_KEY',
  'FENCECHECK_TLS_SERVERNAME',
];

export function fencecheckCli(args: readonly string[], vars: Readonly<Record<string, string>> = {}, opts: { cwd?: string; timeoutMs?: number } = {}): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FENCECHECK_VALKEY_PROVIDER: 'auto', FENCECHECK_DOCKER_PROBE: process.env.FENCECHECK_DOCKER_PROBE ?? 'not probed (test)' };
  for (const k of ENDPOINT_VARS) delete env[k];
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(projectRoot, 'bin/fencecheck.mjs'), ...args], { cwd: opts.cwd ?? projectRoot, env: { ...env, ...vars }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 180_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err, ms: Date.now() - started });
    });
  });
}
