import { checkLuaSource, type Unparseable } from './check.js';
import { fails, type FailOn, type LuaFinding } from './findings.js';
import { luaFiles } from './files.js';
import { IncludeError } from './includes.js';
import type { KeySpecSnapshot } from './keyspecs.js';
import { displayText, readScript } from './source.js';

export type FileStatus = 'clean' | 'findings' | 'unparseable';

export interface FileResult {
  readonly file: string;
  readonly status: FileStatus;
  readonly findings: readonly LuaFinding[];
  /** Why the file could not be checked (syntax error, unreadable file or include). */
  readonly error?: Unparseable;
  /** How long reading and checking it took (a JUnit case's time). */
  readonly durationMs: number;
}

export interface RunOptions {
  readonly snapshot: KeySpecSnapshot;
  readonly includePattern?: RegExp;
  /** Folders searched for an include not found beside the including file. */
  readonly includePath?: readonly string[];
  readonly failOn: FailOn;
  /** ARGV positions (1-based) that hold a key prefix carrying the hash tag. */
  readonly keyPrefixArgs?: readonly number[];
}

export interface RunResult {
  readonly files: readonly FileResult[];
  readonly failing: number;
  readonly errors: number;
  readonly warnings: number;
  /** Findings in code the scripts never run (severity info). */
  readonly unreachable: number;
  readonly unparseable: number;
  /** Findings a `lua-check-allow` comment suppresses (with its reason): counted apart, never failing. */
  readonly suppressed: number;
}

/** Checks every `.lua` file under the paths; a file that cannot be read or parsed does not stop the others. */
export function checkPaths(paths: readonly string[], opts: RunOptions): RunResult {
  const { files, missing } = luaFiles(paths);
  const results: FileResult[] = missing.map((m) => ({ file: m.path, status: 'unparseable', findings: [], error: { file: m.path, line: 0, column: 0, message: m.message }, durationMs: 0 }));
  for (const file of files) {
    const t0 = performance.now();
    results.push({ ...checkFile(file, opts), durationMs: performance.now() - t0 });
  }
  const everything = results.flatMap((r) => r.findings);
  const all = everything.filter((f) => f.suppressed === undefined);
  return {
    files: results,
    failing: all.filter((f) => fails(f, opts.failOn)).length,
    errors: all.filter((f) => f.severity === 'error').length,
    warnings: all.filter((f) => f.severity === 'warning').length,
    unreachable: all.filter((f) => f.severity === 'info').length,
    unparseable: results.filter((r) => r.status === 'unparseable').length,
    suppressed: everything.length - all.length,
  };
}

function checkFile(file: string, opts: RunOptions): Omit<FileResult, 'durationMs'> {
  // Bytes, as Valkey gets them; too large, UTF-16 or a UTF-8 byte-order mark is one line of bad input.
  const got = readScript(file);
  if (!got.ok) return { file, status: 'unparseable', findings: [], error: { file, line: 0, column: 0, message: got.message } };
  try {
    const r = checkLuaSource(got.text, {
      file,
      snapshot: opts.snapshot,
      ...(opts.includePattern && { includePattern: opts.includePattern }),
      ...(opts.includePath && { includePath: opts.includePath }),
      ...(opts.keyPrefixArgs && { keyPrefixArgs: opts.keyPrefixArgs }),
    });
    if (!r.ok) return { file, status: 'unparseable', findings: [], error: r.error };
    return { file, status: r.findings.every((f) => f.suppressed !== undefined) ? 'clean' : 'findings', findings: r.findings };
  } catch (err) {
    if (err instanceof IncludeError) return { file, status: 'unparseable', findings: [], error: { file: err.file, line: err.line, column: 1, message: displayText(err.message) } };
    throw err;
  }
}
