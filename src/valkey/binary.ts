import { execFileSync } from 'node:child_process';
import { ValkeyUnavailableError } from './errors.js';
import { envValue } from '../core/env.js';

export interface ValkeyBinary {
  readonly path: string;
  readonly version: string;
}

let cached: ValkeyBinary | undefined;

/** valkey-server from FENCECHECK_VALKEY_SERVER or PATH, version ≥ 8; ValkeyUnavailableError otherwise. */
export function valkeyBinary(): ValkeyBinary {
  if (cached) return cached;
  const path = envValue('FENCECHECK_VALKEY_SERVER') ?? 'valkey-server';
  let out: string;
  try {
    out = execFileSync(path, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 10_000 });
  } catch (err) {
    throw new ValkeyUnavailableError(`valkey-server not found or not runnable (${path}): run scripts/setup, or set FENCECHECK_VALKEY_SERVER`, { cause: err });
  }
  const version = /v=(\d+\.\d+\.\d+)/.exec(out)?.[1];
  const major = version ? Number(version.split('.')[0]) : NaN;
  if (!version || !(major >= 8)) {
    throw new ValkeyUnavailableError(`valkey-server ${version ?? '(unknown version)'} at ${path} is too old: Valkey >= 8 is required (run scripts/setup)`);
  }
  cached = { path, version };
  return cached;
}
