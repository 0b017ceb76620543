import { dirname, resolve } from 'node:path';

/**
 * Include-style composition (`--- @include "file"`, as some queue libraries build their scripts):
 * each directive line is replaced by the included file's text, recursively, and every line of the
 * result remembers the file and line it came from, so findings point at the included file.
 */
export const DEFAULT_INCLUDE_PATTERN = String.raw`^\s*---\s*@include\s+["']([^"']+)["']`;

export interface Origin {
  readonly file: string;
  readonly line: number;
}

export interface Expanded {
  readonly text: string;
  /** origins[i] is where line i+1 of `text` came from. */
  readonly origins: readonly Origin[];
}

/** An include that cannot be read or that includes itself: bad input, like an unreadable file. */
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

/** Expands include directives of `text` (from `file`); paths resolve against the including file's folder. */
export function expandIncludes(file: string, text: string, pattern: RegExp, read: (path: string) => string, stack: readonly string[] = []): Expanded {
  const lines = text.split('\n');
  const out: string[] = [];
  const origins: Origin[] = [];
  lines.forEach((line, i) => {
    const m = pattern.exec(line);
    if (!m || m[1] === undefined) {
      out.push(line);
      origins.push({ file, line: i + 1 });
      return;
    }
    const target = resolve(dirname(file), m[1]);
    if (target === file || stack.includes(target)) throw new IncludeError(`include cycle through ${m[1]}`, file, i + 1);
    let included: string;
    try {
      included = read(target);
    } catch (err) {
      throw new IncludeError(`cannot read include ${m[1]} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, file, i + 1);
    }
    const sub = expandIncludes(target, included.replace(/\n$/, ''), pattern, read, [...stack, file]);
    out.push(...sub.text.split('\n'));
    origins.push(...sub.origins);
  });
  return { text: out.join('\n'), origins };
}
