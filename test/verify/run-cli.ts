import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../../src/core/project-root.js';

const exec = promisify(execFile);
const BIN = resolve(projectRoot, 'bin/fencecheck.mjs');

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node bin/fencecheck.mjs ...args` as a real process; resolves with its exit code and output. */
export async function runCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: '1', ...env }, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
