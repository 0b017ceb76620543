/**
 * Where generic code names a system: outside a system's own folders (src/systems/<package>/,
 * models/, mutants/, properties/) and the registry, a source file may not name one — no import of a
 * system's folder, no string literal that is a system's name, no identifier built on one
 * (`fencingSystem`, `PauseState`), no path with one as a folder (`src/systems/limiter/lua`). Comments may (they explain); the Valkey words that happen to share a
 * system's name in upper case (`CLIENT PAUSE`) are not names of ours.
 */
import { readFileSync } from 'node:fs';

export interface NameFinding {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

/** Comments blanked out (line numbers kept); strings kept. */
function withoutComments(src: string): string {
  let out = '';
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    const n = src[i + 1];
    if (c === '/' && n === '/') {
      while (i < src.length && src[i] !== '\n') i++;
    } else if (c === '/' && n === '*') {
      i += 2;
      while (i < src.length && !(src[i] === '*' && src[i + 1] === '/')) out += src[i++] === '\n' ? '\n' : '';
      i += 2;
    } else if (c === "'" || c === '"' || c === '`') {
      const q = c;
      out += src[i++];
      while (i < src.length && src[i] !== q) {
        if (src[i] === '\\') out += src[i++] ?? '';
        out += src[i++] ?? '';
      }
      out += src[i++] ?? '';
    } else out += src[i++];
  }
  return out;
}

const camel = (name: string) => name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
const pascal = (name: string) => camel(name).replace(/^[a-z]/, (c) => c.toUpperCase());

/** Every place `file` names one of `names` in code. */
export function systemNamesIn(file: string, names: readonly string[]): NameFinding[] {
  const code = withoutComments(readFileSync(file, 'utf8'));
  const alts = names.flatMap((n) => [n, camel(n), pascal(n)]).map((n) => n.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&'));
  const patterns = [
    // An import of a system's folder.
    new RegExp(`from\\s+'[^']*/(?:systems|models|mutants|properties)/(?:${names.join('|')})/`),
    new RegExp(`import\\(\\s*'[^']*/(?:systems|models|mutants|properties)/(?:${names.join('|')})/`),
    // A string literal that is exactly a name, or a template/path naming one as a path part.
    new RegExp(`(['"\`])(?:${names.join('|')})\\1`),
    // A path in a string with a name as one of its parts (`src/systems/limiter/lua`, `tla/pause/…`).
    new RegExp(`['"\`](?:[^'"\`]*/)?(?:${names.join('|')})(?:/[^'"\`]*)?['"\`]`),
    // An identifier built on a name: fencingSystem, PauseState, initLimiterX (not the bare word inside other words).
    new RegExp(`\\b(?:${alts.join('|')})[A-Z_]\\w*`),
  ];
  const out: NameFinding[] = [];
  code.split('\n').forEach((text, i) => {
    if (patterns.some((p) => p.test(text))) out.push({ file, line: i + 1, text: text.trim().slice(0, 160) });
  });
  return out;
}
