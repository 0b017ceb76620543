/**
 * Where sampled runs write their observed traces, and where `fencecheck tracecheck --observed` reads
 * them: `FENCECHECK_OBSERVED_DIR`, else `observed/` in the trace folder (src/core/trace-dir.ts:
 * FENCECHECK_TRACE_DIR, which verify sets to the run's own `<out>/traces`, so its tracecheck stage
 * reads that run's traces only; else reports/traces). One file per run of a command
 * (`{ schema, traces }`), named after what wrote it.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { projectRoot } from '../../core/project-root.js';
import { shownPath, TRACE_DIR_ENV, traceDir } from '../../core/trace-dir.js';
import { OBSERVED_SCHEMA, type ObservedFile, type ObservedTrace } from './format.js';

export const OBSERVED_DIR_ENV = 'FENCECHECK_OBSERVED_DIR';
/** The observed traces' folder inside the trace folder. */
export const OBSERVED_SUBDIR = 'observed';

/** The folder observed traces go to (absolute). */
export function observedDir(env: NodeJS.ProcessEnv = process.env, root = projectRoot): string {
  const d = env[OBSERVED_DIR_ENV];
  return d !== undefined && d !== '' ? (isAbsolute(d) ? d : resolve(root, d)) : join(traceDir(env), OBSERVED_SUBDIR);
}

let written = 0;
let recording = false;

/** Every fencecheck command records (src/cli/main.ts); a library caller (a test) records only when it names a folder. */
export function recordObservedTraces(on = true): void {
  recording = on;
}

/** Whether a write without a folder of its own records: in a command, or when the environment names a folder. */
export function recordingObserved(env: NodeJS.ProcessEnv = process.env): boolean {
  return recording || Boolean(env[OBSERVED_DIR_ENV]) || Boolean(env[TRACE_DIR_ENV]);
}

/**
 * Writes one run's traces as `<dir>/<name>-<pid>-<n>.json` (a run never overwrites another's);
 * returns its path as reports name it (src/core/trace-dir.ts shownPath), or null when there is
 * nothing to write or nothing records (no `dir`, no command, no folder in the environment).
 */
export function writeObserved(name: string, traces: readonly ObservedTrace[], dir?: string): string | null {
  if (traces.length === 0 || (dir === undefined && !recordingObserved())) return null;
  dir ??= observedDir();
  mkdirSync(dir, { recursive: true });
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, '-');
  const file = join(dir, `${safe}-${process.pid}-${Date.now().toString(36)}${(written++).toString(36)}.json`);
  const doc: ObservedFile = { schema: OBSERVED_SCHEMA, traces: traces.map((t) => ({ schema: OBSERVED_SCHEMA, ...t })) };
  writeFileSync(file, `${JSON.stringify(doc)}\n`);
  return shownPath(file);
}

/** Every .json file in the folder (absolute paths, sorted); none when it does not exist. */
export function observedFiles(dir = observedDir()): string[] {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => join(dir, f));
  } catch {
    return [];
  }
}
