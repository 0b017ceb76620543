import { readFileSync } from 'node:fs';
import { checkLuaSource, type Unparseable } from './check.js';
import { fails, type FailOn, type LuaFinding } from './findings.js';
import { luaFiles } from './files.js';
import { IncludeError } from './includes.js';
import type { KeySpecSnapshot } from './keyspecs.js';

export type FileStatus = 'clean' | 'findings' | 'unparseable';

export interface FileResult {
  readonly file: string;
  readonly status: FileStatus;
  readonly findings: readonly LuaFinding[];
  /** Why the file could not be checked (syntax error, unreadable file or include). */
  readonly error?: Unparseable;
}

export interface RunOptions {
  readonly snapshot: KeySpecSnapshot;
  readonly includePattern?: RegExp;
  readonly failOn: FailOn;
}

export interface RunResult {
  readonly files: readonly FileResult[];
  readonly failing: number;
  readonly errors: number;
  readonly warnings: number;
  readonly unparseable: number;
}

/** Checks every `.lua` file under the paths; a file that cannot be read or parsed does not stop the others. */
export function checkPaths(paths: readonly string[], opts: RunOptions): RunResult {
  const { files, missing } = luaFiles(paths);
  const results: FileResult[] = missing.map((m) => ({ file: m.path, status: 'unparseable', findings: [], error: { file: m.path, line: 0, column: 0, message: m.message } }));
  for (const file of files) results.push(checkFile(file, opts));
  const all = results.flatMap((r) => r.findings);
  return {
    files: results,
    failing: all.filter((f) => fails(f, opts.failOn)).length,
    errors: all.filter((f) => f.severity === 'error').length,
    warnings: all.filter((f) => f.severity === 'warning').length,
    unparseable: results.filter((r) => r.status === 'unparseable').length,
  };
}

function checkFile(file: string, opts: RunOptions): FileResult {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (err) {
    return { file, status: 'unparseable', findings: [], error: { file, line: 0, column: 0, message: `cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` } };
  }
  try {
    const r = checkLuaSource(source, { file, snapshot: opts.snapshot, ...(opts.includePattern && { includePattern: opts.includePattern }) });
    if (!r.ok) return { file, status: 'unparseable', findings: [], error: r.error };
    return { file, status: r.findings.length === 0 ? 'clean' : 'findings', findings: r.findings };
  } catch (err) {
    if (err instanceof IncludeError) return { file, status: 'unparseable', findings: [], error: { file: err.file, line: err.line, column: 1, message: err.message } };
    throw err;
  }
}
