import { isAbsolute, resolve } from 'node:path';

/** A TLC option fencecheck cannot pass through (it sets it itself, or it has its own flag). */
export class PassThroughError extends Error {
  override readonly name = 'PassThroughError';
}

/** Options fencecheck sets itself: passing them again would break the run or its parsing. */
const OWNED: Readonly<Record<string, string>> = {
  '-tool': 'fencecheck always runs TLC with -tool (its output is parsed)',
  '-config': 'use --config FILE',
  '-metadir': 'TLC runs in a scratch directory fencecheck removes afterwards',
  '-workers': 'use --workers N',
};

/** Options followed by one file argument, or by a format and a file (`-dumpTrace json FILE`). */
const FILE_AFTER: Readonly<Record<string, number>> = { '-userFile': 1, '-teSpecOutDir': 1, '-dumpTrace': 2, '-loadTrace': 2 };

/**
 * The TLC options after `--`, checked and with their file arguments made absolute against `cwd`:
 * TLC runs in a scratch directory and resolves a relative file against the spec's copy there, so
 * `-dumpTrace json out.json` would otherwise be written into a directory that is then deleted.
 * `-dump [FORMAT] FILE` takes a format only when one is given (`dot…`, `json`).
 */
export function resolvePassThrough(args: readonly string[], cwd = process.cwd()): string[] {
  const out: string[] = [];
  const abs = (f: string) => (isAbsolute(f) ? f : resolve(cwd, f));
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (i === 0 && !a.startsWith('-')) throw new PassThroughError(`TLC option expected after --, got "${a}" (the spec is --spec FILE)`);
    const owned = OWNED[a];
    if (owned !== undefined) throw new PassThroughError(`TLC option ${a} cannot be passed through: ${owned}`);
    out.push(a);
    let n = FILE_AFTER[a];
    if (a === '-dump') n = args[i + 1] !== undefined && /^(dot|json|tla)\b/.test(args[i + 1]!) && args[i + 2] !== undefined ? 2 : 1;
    if (n === undefined) continue;
    const got = args.slice(i + 1, i + 1 + n);
    if (got.length < n || got.some((g) => g.startsWith('-'))) throw new PassThroughError(`TLC option ${a} takes ${n === 2 ? 'a format and a file' : 'a file'}`);
    out.push(...got.slice(0, n - 1), abs(got[n - 1]!));
    i += n;
  }
  return out;
}

/** JVM options fencecheck sets itself, or that would replace what it runs. */
const JVM_OWNED: readonly RegExp[] = [/^-(cp|classpath)$/, /^--class-path(=|$)/, /^-jar$/, /^-DTLA-Library=/, /^--module-path(=|$)/, /^-p$/];

/** Why a `--java-opt` value cannot be passed to the JVM, or undefined when it can. */
export function javaOptionProblem(opt: string): string | undefined {
  if (!opt.startsWith('-')) return `--java-opt takes a JVM option (-Xmx4g, -Dname=value), got "${opt}"`;
  if (JVM_OWNED.some((re) => re.test(opt))) return `--java-opt ${opt}: fencecheck sets the classpath and the TLA+ library itself (use --classpath JAR and --lib DIR)`;
  return undefined;
}
