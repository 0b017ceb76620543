/**
 * Where counterexample traces are saved. `FENCECHECK_TRACE_DIR` names the folder (verify sets it to
 * `<out>/traces` for every stage it runs, so a run's traces live with its reports); without it,
 * `reports/traces` under the project root. Traces are named in reports by their path relative to
 * the project root, or absolute when they lie outside it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { projectRoot } from './project-root.js';

export const TRACE_DIR_ENV = 'FENCECHECK_TRACE_DIR';
export const DEFAULT_TRACE_DIR = 'reports/traces';

/** The absolute trace folder (a relative `FENCECHECK_TRACE_DIR` is taken from the working folder). */
export function traceDir(env: NodeJS.ProcessEnv = process.env): string {
  const given = env[TRACE_DIR_ENV];
  return given !== undefined && given !== '' ? resolve(given) : resolve(projectRoot, DEFAULT_TRACE_DIR);
}

/** A file's path as reports and traces name it: relative to the project root, absolute outside it. */
export function shownPath(file: string, root = projectRoot): string {
  const rel = relative(root, resolve(root, file));
  return rel.startsWith('..') || isAbsolute(rel) ? resolve(root, file) : rel;
}

/** Writes `value` as JSON to `fileName` in `dir` (default: traceDir()); returns its shown path. */
export function writeTraceFile(value: unknown, fileName: string, dir: string = traceDir()): string {
  const abs = resolve(projectRoot, dir);
  mkdirSync(abs, { recursive: true });
  const file = join(abs, fileName);
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
  return shownPath(file);
}
