import { statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { displayBytes, displayText, MAX_SCRIPT_BYTES, readScript, type ScriptBytes } from './source.js';

/**
 * Include-style composition (`--- @include "file"`, as queue libraries build their scripts) the way
 * their loaders resolve it (BullMQ's ScriptLoader): a reference is looked up relative to the
 * including file's folder, then in each folder of the search path (`--include-path`), each as
 * written and with `.lua` added (`"includes/removeLock"` is includes/removeLock.lua). A file is
 * inlined once per script, at its first directive; every later directive for it (from the script
 * or from another include) expands to nothing. Every line of the result remembers the file and
 * line it came from, so findings point at the included file.
 */
export const DEFAULT_INCLUDE_PATTERN = String.raw`^\s*-{2,3}\s*@include\s+["']([^"']+)["']`;

export interface Origin {
  readonly file: string;
  readonly line: number;
  /** For a line an include brought in: the directives that brought it, the script's first. */
  readonly via?: readonly Origin[];
}

export interface Expanded {
  /** A byte string (see source.ts). */
  readonly text: string;
  /** origins[i] is where line i+1 of `text` came from. */
  readonly origins: readonly Origin[];
  /** Every file inlined, in order (each once). */
  readonly included: readonly string[];
}

/** An include that cannot be read, found or allowed: bad input, like an unreadable file. */
export class IncludeError extends Error {
  override readonly name = 'IncludeError';
  constructor(
    message: string,
    readonly file: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/** The directive pattern from its source text: one capture group, the included path. */
export function includePattern(source: string): RegExp {
  const re = new RegExp(source); // a SyntaxError for the caller to report as usage
  if (new RegExp(`${re.source}|`).exec('')!.length < 2) throw new SyntaxError(`the include pattern needs one capture group (the file), got /${source}/`);
  return re;
}

export interface IncludeOptions {
  readonly pattern: RegExp;
  /** Folders searched, after the including file's own, for a reference not found there. */
  readonly searchPath?: readonly string[];
  /** How a file is read (default readScript: bytes, size limit, encoding check). */
  readonly read?: (path: string) => ScriptBytes;
  /** The expanded script may not grow beyond this (default the size limit of one script). */
  readonly maxBytes?: number;
}

const isFile = (p: string): boolean => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};

/** Where `ref` (from a file in `fromDir`) is, by the loader's rule; undefined when nowhere. */
export function resolveInclude(ref: string, fromDir: string, searchPath: readonly string[] = [], exists: (p: string) => boolean = isFile): string | undefined {
  const names = ref.endsWith('.lua') ? [ref] : [ref, `${ref}.lua`];
  const dirs = isAbsolute(ref) ? [''] : [fromDir, ...searchPath];
  for (const d of dirs) for (const n of names) if (exists(resolve(d, n))) return resolve(d, n);
  return undefined;
}

/** Expands the include directives of `text` (a byte string from `file`). */
export function expandIncludes(file: string, text: string, opts: IncludeOptions): Expanded {
  const read = opts.read ?? ((p: string) => readScript(p));
  const max = opts.maxBytes ?? MAX_SCRIPT_BYTES;
  const emitted = new Set<string>([resolve(file)]);
  const included: string[] = [];
  let size = 0;
  const expand = (from: string, source: string, stack: readonly string[], via: readonly Origin[]): { text: string[]; origins: Origin[] } => {
    const out: string[] = [];
    const origins: Origin[] = [];
    source.split('\n').forEach((line, i) => {
      const m = opts.pattern.exec(line);
      const keep = (l: string) => {
        size += l.length + 1;
        if (size > max) throw new IncludeError(`the script with its includes is over the ${max}-byte limit for a script`, from, i + 1);
        out.push(l);
        origins.push({ file: from, line: i + 1, ...(via.length > 0 && { via }) });
      };
      if (!m || m[1] === undefined) return keep(line);
      // The path as the file spells it (its bytes are UTF-8 on every loader's file system).
      const ref = Buffer.from(m[1], 'latin1').toString('utf8');
      const shownRef = displayBytes(m[1]);
      if (/[*?[\]{}]/.test(ref)) throw new IncludeError(`include ${shownRef}: glob patterns are not supported (name each file)`, from, i + 1);
      if (/^(~|<[^>]*>)\//.test(ref))
        throw new IncludeError(`include ${shownRef}: mapped paths (~/…, <name>/…) are not supported: give the folder with --include-path and include the path under it`, from, i + 1);
      const target = resolveInclude(ref, dirname(from), opts.searchPath);
      if (target === undefined) {
        const where = [dirname(from), ...(opts.searchPath ?? [])].map((d) => displayText(d)).join(', ');
        throw new IncludeError(`cannot find include ${shownRef} (looked for it${ref.endsWith('.lua') ? '' : ' and with .lua'} in ${where})`, from, i + 1);
      }
      if (target === resolve(from) || stack.includes(target)) throw new IncludeError(`include cycle through ${shownRef}`, from, i + 1);
      // Inlined once per script: a later directive for the same file adds nothing (the line stays, empty).
      if (emitted.has(target)) return keep('');
      emitted.add(target);
      included.push(target);
      const got = read(target);
      if (!got.ok) throw new IncludeError(`include ${shownRef}: ${got.message}`, from, i + 1);
      const sub = expand(target, got.text.replace(/\n$/, ''), [...stack, resolve(from)], [...via, { file: from, line: i + 1 }]);
      out.push(...sub.text);
      origins.push(...sub.origins);
    });
    return { text: out, origins };
  };
  const r = expand(file, text, [], []);
  return { text: r.text.join('\n'), origins: r.origins, included };
}
