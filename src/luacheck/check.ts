import luaparse from 'luaparse';
import type { Node } from 'luaparse';
import { evaluate } from './evaluate.js';
import { severityOf, type LuaFinding } from './findings.js';
import { expandIncludes, type IncludeOptions, type Origin } from './includes.js';
import { committedSnapshot, type KeySpecSnapshot } from './keyspecs.js';
import { displayBytes, displayText } from './source.js';
import { suppressions } from './suppress.js';
import { walk } from './walk.js';

export interface CheckOptions {
  /** Named in findings (default `<script>`). */
  readonly file?: string;
  /** Key specs (default: the committed snapshot of Valkey 8). */
  readonly snapshot?: KeySpecSnapshot;
  /** Expand include directives matching this pattern before checking. */
  readonly includePattern?: RegExp;
  /** Folders searched for an include not found beside the including file. */
  readonly includePath?: readonly string[];
  readonly readFile?: IncludeOptions['read'];
  /** ARGV positions (1-based) that hold a key prefix carrying the declared keys' hash tag. */
  readonly keyPrefixArgs?: readonly number[];
}

/** A script that cannot be checked: a Lua syntax error (line and column in the file it is in). */
export interface Unparseable {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

export type CheckResult = { readonly ok: true; readonly findings: readonly LuaFinding[]; readonly included?: readonly string[] } | { readonly ok: false; readonly error: Unparseable };

/**
 * The locality check of one Lua script: every key a redis.call / redis.pcall reaches must come from
 * KEYS (key positions from the server's key specs). `source` is the script's bytes as a byte string
 * (src/luacheck/source.ts; plain ASCII text is one too). Throws IncludeError for an include that
 * cannot be read; a syntax error is a result (`ok: false`). Every text a finding or an error shows
 * is decoded as UTF-8 with its control bytes escaped.
 */
export function checkLuaSource(source: string, opts: CheckOptions = {}): CheckResult {
  const file = opts.file ?? '<script>';
  const expanded = opts.includePattern
    ? expandIncludes(file, source, { pattern: opts.includePattern, ...(opts.includePath && { searchPath: opts.includePath }), ...(opts.readFile && { read: opts.readFile }) })
    : undefined;
  const raw = expanded?.text ?? source;
  const origin = (line: number): Origin => expanded?.origins[line - 1] ?? { file, line };
  // A `#!lua flags=…` shebang is Valkey syntax, not Lua: blank it, keeping line numbers.
  const lua = raw.startsWith('#!') ? raw.replace(/^#![^\n]*/, '') : raw;
  let chunk: luaparse.Chunk;
  try {
    chunk = luaparse.parse(lua, { locations: true, ranges: true, comments: true, scope: false, luaVersion: '5.1', encodingMode: 'pseudo-latin1' });
  } catch (err) {
    const e = err as Error & { line?: number; column?: number };
    const o = origin(e.line ?? 1);
    // luaparse quotes the offending text of the byte string: show it decoded and escaped.
    return { ok: false, error: { file: o.file, line: o.line, column: (e.column ?? 0) + 1, message: `Lua syntax error: ${displayBytes(e.message.replace(/^\[\d+:\d+\]\s*/, ''))}` } };
  }
  const text = (n: Node) => {
    const r = (n as { range?: [number, number] }).range;
    const t = r ? displayBytes(lua.slice(r[0], r[1]).replace(/\s+/g, ' ')) : n.type;
    return t.length > 80 ? `${t.slice(0, 77)}...` : t;
  };
  const lines = lua.split('\n');
  const comments = (chunk.comments ?? []).map((c) => {
    const line = c.loc?.start.line ?? 1;
    const column = c.loc?.start.column ?? 0;
    return { value: c.value, line, column, trailing: (lines[line - 1] ?? '').slice(0, column).trim() !== '' };
  });
  const allowed = suppressions(comments);
  const allowedAt = new Map(allowed.ok.map((a) => [a.line, a]));
  const badSuppressions = allowed.bad.map((b): LuaFinding => {
    const o = origin(b.line);
    return {
      file: o.file,
      line: o.line,
      column: b.column + 1,
      kind: 'bad-suppression',
      severity: 'error',
      message: displayText(b.message),
      ...(o.via && { via: o.via.map((v) => ({ file: v.file, line: v.line })) }),
    };
  });
  const found = evaluate(walk(chunk), opts.snapshot ?? committedSnapshot(), text, opts.keyPrefixArgs ?? []);
  const findings = found.map((f): LuaFinding => {
    const line = f.node.loc?.start.line ?? 1;
    const o = origin(line);
    const dead = f.unreachable !== undefined;
    const allow = allowedAt.get(line);
    return {
      file: o.file,
      line: o.line,
      column: (f.node.loc?.start.column ?? 0) + 1,
      kind: f.kind,
      severity: severityOf(f.kind, dead),
      ...(f.command !== undefined && { command: f.command }),
      ...(f.keyNode && { key: text(f.keyNode) }),
      message: dead ? `${f.message} [unreachable: ${displayText(f.unreachable!)} is never used by the script]` : f.message,
      ...(dead && { unreachable: displayText(f.unreachable!) }),
      ...(allow?.kinds.has(f.kind) && { suppressed: displayText(allow.reason) }),
      ...(o.via && { via: o.via.map((v) => ({ file: v.file, line: v.line })) }),
    };
  });
  findings.push(...badSuppressions);
  findings.sort((a, b) => (a.file === b.file ? a.line - b.line || a.column - b.column : a.file < b.file ? -1 : 1));
  return { ok: true, findings, ...(expanded && { included: expanded.included }) };
}
