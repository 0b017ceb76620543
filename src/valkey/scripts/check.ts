import { checkLuaSource } from '../../luacheck/check.js';

/**
 * The key-declaration validator of the project's own scripts: every key a script touches through redis.call /
 * redis.pcall must come from KEYS. It is the `fencecheck lua-check` checker (src/luacheck/: key
 * positions from Valkey's own key specs, aliases and helper parameters followed); here every
 * finding counts, warnings included (a key built from a declared key is still undeclared), and a
 * syntax error is a finding too.
 * The server catches this only for scripts with a `#!lua` shebang, and only on a cluster.
 */
export interface ScriptFinding {
  readonly line: number;
  readonly message: string;
}

export function checkDeclaredKeys(source: string): readonly ScriptFinding[] {
  const r = checkLuaSource(source);
  if (!r.ok) return [{ line: r.error.line, message: r.error.message }];
  return r.findings.map((f) => ({ line: f.line, message: f.message }));
}
