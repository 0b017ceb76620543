/**
 * Where counterexample traces are saved. `FENCECHECK_TRACE_DIR` names the folder (verify sets it to
 * `<out>/traces` for every stage it runs, so a run's traces live with its reports); without it,
 * `reports/traces` under the project root. Traces are named in reports by their path relative to
 * the project root, or absolute when they lie outside it.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { projectRoot } from './project-root.js';

export const TRACE_DIR_ENV = 'FENCECHECK_TRACE_DIR';
export const DEFAULT_TRACE_DIR = 'reports/traces';

/** The absolute trace folder (a relative `FENCECHECK_TRACE_DIR` is taken from the working folder). */
export function traceDir(env: NodeJS.ProcessEnv = process.env): string {
  const given = env[TRACE_DIR_ENV];
  return given !== undefined && given !== '' ? resolve(given) : resolve(projectRoot, DEFAULT_TRACE_DIR);
}

/**
 * Why `FENCECHECK_TRACE_DIR` cannot be a trace folder (it, or the nearest part of it that exists,
 * is not a folder), or null. Checked before a command starts: bad input, never a crash mid-run.
 */
export function traceDirProblem(env: NodeJS.ProcessEnv = process.env): string | null {
  const given = env[TRACE_DIR_ENV];
  if (given === undefined || given === '') return null;
  let p = resolve(given);
  while (!existsSync(p) && dirname(p) !== p) p = dirname(p);
  return statSync(p).isDirectory() ? null : `${TRACE_DIR_ENV}=${given}: ${p} is not a folder (the trace folder must be one, or be creatable)`;
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
