/**
 * Where sampled runs write their observed traces, and where `fencecheck tracecheck --observed` reads
 * them: `FENCECHECK_OBSERVED_DIR` (verify points every stage at `<out>/observed/`, so its tracecheck
 * stage reads its own runs' traces), else reports/traces/observed/. One file per run of a command
 * (`{ schema, traces }`), named after what wrote it.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { projectRoot } from '../../core/project-root.js';
import { OBSERVED_SCHEMA, type ObservedFile, type ObservedTrace } from './format.js';

export const OBSERVED_DIR_ENV = 'FENCECHECK_OBSERVED_DIR';
export const DEFAULT_OBSERVED_DIR = 'reports/traces/observed';

/** The folder observed traces go to (absolute). */
export function observedDir(env: NodeJS.ProcessEnv = process.env, root = projectRoot): string {
  const d = env[OBSERVED_DIR_ENV];
  return d !== undefined && d !== '' ? (isAbsolute(d) ? d : resolve(root, d)) : join(root, DEFAULT_OBSERVED_DIR);
}

let written = 0;

/**
 * Writes one run's traces as `<dir>/<name>-<pid>-<n>.json` (a run never overwrites another's);
 * returns the path relative to the project root, or null when there is nothing to write.
 */
export function writeObserved(name: string, traces: readonly ObservedTrace[], dir = observedDir()): string | null {
  if (traces.length === 0) return null;
  mkdirSync(dir, { recursive: true });
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, '-');
  const file = join(dir, `${safe}-${process.pid}-${Date.now().toString(36)}${(written++).toString(36)}.json`);
  const doc: ObservedFile = { schema: OBSERVED_SCHEMA, traces: traces.map((t) => ({ schema: OBSERVED_SCHEMA, ...t })) };
  writeFileSync(file, `${JSON.stringify(doc)}\n`);
  return relative(projectRoot, file);
}

/** Every .json file in the folder (absolute paths, sorted); none when it does not exist. */
export function observedFiles(dir = observedDir()): string[] {
  try {
    return readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => join(dir, f));
  } catch {
    return [];
  }
}
