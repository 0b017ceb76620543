import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { checkDeclaredKeys, type ScriptFinding } from './check.js';

export interface LuaScript {
  readonly name: string;
  readonly source: string;
  /** SHA-1 of the source, as SCRIPT LOAD / EVALSHA name it. */
  readonly sha1: string;
}

/** A script failed the static KEYS check (or did not parse). */
export class ScriptCheckError extends Error {
  override readonly name = 'ScriptCheckError';
  constructor(
    readonly script: string,
    readonly findings: readonly ScriptFinding[],
  ) {
    super(`${script}: ${findings.map((f) => `line ${f.line}: ${f.message}`).join('; ')}`);
  }
}

/** A script from a string, after the static check (throws ScriptCheckError). */
export function luaScript(name: string, source: string): LuaScript {
  const findings = checkDeclaredKeys(source);
  if (findings.length > 0) throw new ScriptCheckError(name, findings);
  return { name, source, sha1: createHash('sha1').update(source, 'utf8').digest('hex') };
}

/**
 * A `.lua` file, optionally transformed first (a mutant patch), after the static check.
 * The default name is the file name without `.lua`.
 */
export function loadLuaScript(path: string, opts: { name?: string; transform?: (source: string) => string } = {}): LuaScript {
  const raw = readFileSync(path, 'utf8');
  const source = opts.transform ? opts.transform(raw) : raw;
  return luaScript(opts.name ?? basename(path).replace(/\.lua$/, ''), source);
}
