import luaparse from 'luaparse';
import type { Node, Expression, Identifier, CallExpression, Statement } from 'luaparse';

/**
 * The G2 validator: every key a script touches through redis.call / redis.pcall must come from
 * KEYS — `KEYS[n]` itself, a local that only ever holds a KEYS element (`local k = KEYS[1]`), the
 * value variable of `for _, k in ipairs(KEYS)`, or `unpack(KEYS)`. Anything else (a literal, a
 * concatenation, an ARGV value, a function parameter) reaches a key the server's slot check never
 * saw: on a cluster it works until the slots split, then it breaks.
 * The server catches this only for scripts with a `#!lua` shebang, and only on a cluster.
 */
export interface ScriptFinding {
  readonly line: number;
  readonly message: string;
}

type KeySpec =
  | { kind: 'range'; first: number; last: number; step: number } // 1-based arg positions after the command name; last < 0 counts from the end
  | { kind: 'numkeys'; numkeysAt: number; extraKeysBefore: number } // keys follow a count argument
  | { kind: 'none' }
  | { kind: 'forbidden'; why: string };

const range = (first: number, last: number, step = 1): KeySpec => ({ kind: 'range', first, last, step });
const NONE: KeySpec = { kind: 'none' };

const KEY_SPECS: Readonly<Record<string, KeySpec>> = {
  ...Object.fromEntries(
    ['DEL', 'UNLINK', 'EXISTS', 'MGET', 'TOUCH', 'WATCH', 'SINTER', 'SUNION', 'SDIFF', 'PFCOUNT', 'PFMERGE', 'SINTERSTORE', 'SUNIONSTORE', 'SDIFFSTORE'].map((c) => [c, range(1, -1)]),
  ),
  MSET: range(1, -1, 2),
  MSETNX: range(1, -1, 2),
  ...Object.fromEntries(['RENAME', 'RENAMENX', 'COPY', 'SMOVE', 'LMOVE', 'RPOPLPUSH', 'BLMOVE', 'BRPOPLPUSH', 'LCS', 'ZRANGESTORE', 'GEOSEARCHSTORE'].map((c) => [c, range(1, 2)])),
  ...Object.fromEntries(['BLPOP', 'BRPOP', 'BZPOPMIN', 'BZPOPMAX'].map((c) => [c, range(1, -2)])),
  ...Object.fromEntries(['ZUNIONSTORE', 'ZINTERSTORE', 'ZDIFFSTORE'].map((c) => [c, { kind: 'numkeys', numkeysAt: 2, extraKeysBefore: 1 } as KeySpec])),
  ...Object.fromEntries(['ZUNION', 'ZINTER', 'ZDIFF', 'SINTERCARD', 'ZINTERCARD', 'LMPOP', 'ZMPOP'].map((c) => [c, { kind: 'numkeys', numkeysAt: 1, extraKeysBefore: 0 } as KeySpec])),
  BITOP: range(2, -1),
  OBJECT: range(2, 2),
  MEMORY: range(2, 2),
  ...Object.fromEntries(
    ['PING', 'ECHO', 'TIME', 'INFO', 'DBSIZE', 'LASTSAVE', 'PUBLISH', 'CLUSTER', 'READONLY', 'READWRITE', 'ROLE', 'WAIT', 'WAITAOF', 'COMMAND', 'CONFIG', 'CLIENT', 'LATENCY', 'SLOWLOG', 'LOLWUT'].map((c) => [c, NONE]),
  ),
  ...Object.fromEntries(['KEYS', 'SCAN', 'RANDOMKEY'].map((c) => [c, { kind: 'forbidden', why: `${c} reaches keys that are not declared in KEYS` } as KeySpec])),
  ...Object.fromEntries(['EVAL', 'EVALSHA', 'EVAL_RO', 'EVALSHA_RO', 'FCALL', 'FCALL_RO', 'MIGRATE', 'XREAD', 'XREADGROUP', 'SORT', 'SORT_RO'].map((c) => [c, { kind: 'forbidden', why: `key positions of ${c} cannot be checked statically` } as KeySpec])),
  FLUSHALL: { kind: 'forbidden', why: 'FLUSHALL touches every key' },
  FLUSHDB: { kind: 'forbidden', why: 'FLUSHDB touches every key' },
};

/** Anything not listed has one key, right after the command name (GET, SET, INCR, PEXPIRE, H*, Z*, ...). */
const DEFAULT_SPEC = range(1, 1);

interface Binding {
  readonly name: string;
  /** What was ever stored in it: 'keys' (a KEYS element), another binding, or 'other'. */
  readonly sources: (Binding | 'keys' | 'other')[];
}

type Scope = Map<string, Binding>;

interface PendingKey {
  readonly line: number;
  readonly describe: string;
  readonly value: Binding | 'keys' | 'other' | 'multi-keys';
}

export function checkDeclaredKeys(source: string): readonly ScriptFinding[] {
  // A `#!lua flags=...` shebang is Valkey syntax, not Lua: blank it, keeping line numbers.
  const lua = source.startsWith('#!') ? source.replace(/^#![^\n]*/, '') : source;
  let chunk: luaparse.Chunk;
  try {
    chunk = luaparse.parse(lua, { locations: true, ranges: true, luaVersion: '5.1', encodingMode: 'pseudo-latin1' });
  } catch (err) {
    const e = err as Error & { line?: number };
    return [{ line: e.line ?? 1, message: `Lua syntax error: ${e.message}` }];
  }
  const findings: ScriptFinding[] = [];
  const pending: PendingKey[] = [];
  const scopes: Scope[] = [new Map()];
  const text = (n: Node) => {
    const r = (n as { range?: [number, number] }).range;
    return r ? lua.slice(r[0], r[1]).replace(/\s+/g, ' ') : n.type;
  };
  const lineOf = (n: Node) => n.loc?.start.line ?? 1;
  const resolve = (name: string): Binding | undefined => {
    for (let i = scopes.length - 1; i >= 0; i--) {
      const b = scopes[i]!.get(name);
      if (b) return b;
    }
    return undefined;
  };
  const isGlobal = (e: Expression, name: string): e is Identifier => e.type === 'Identifier' && e.name === name && resolve(name) === undefined;
  const isRedisCall = (e: Expression): boolean =>
    e.type === 'MemberExpression' && e.indexer === '.' && isGlobal(e.base, 'redis') && (e.identifier.name === 'call' || e.identifier.name === 'pcall');
  const isUnpackKeys = (e: Expression): boolean =>
    e.type === 'CallExpression' &&
    (isGlobal(e.base, 'unpack') || (e.base.type === 'MemberExpression' && isGlobal(e.base.base, 'table') && e.base.identifier.name === 'unpack')) &&
    e.arguments.length === 1 &&
    isGlobal(e.arguments[0]!, 'KEYS');

  /** What a value expression holds, as far as key provenance goes. */
  const valueOf = (e: Expression): Binding | 'keys' | 'other' => {
    if (e.type === 'IndexExpression' && isGlobal(e.base, 'KEYS')) return 'keys';
    if (e.type === 'Identifier') return resolve(e.name) ?? 'other';
    return 'other';
  };
  const declare = (id: Identifier, source: Binding | 'keys' | 'other') => {
    scopes[scopes.length - 1]!.set(id.name, { name: id.name, sources: [source] });
  };
  const withScope = (fn: () => void) => {
    scopes.push(new Map());
    try {
      fn();
    } finally {
      scopes.pop();
    }
  };
  const block = (body: Statement[]) => withScope(() => body.forEach(visit));

  const checkRedisCall = (call: CallExpression) => {
    const [cmdArg, ...args] = call.arguments;
    args.forEach(visit);
    if (!cmdArg || cmdArg.type !== 'StringLiteral') {
      if (cmdArg) visit(cmdArg);
      findings.push({ line: lineOf(call), message: `${text(call)}: the command name is not a string literal, so its keys cannot be checked` });
      return;
    }
    const cmd = cmdArg.value.toUpperCase();
    const spec = KEY_SPECS[cmd] ?? DEFAULT_SPEC;
    if (spec.kind === 'none') return;
    if (spec.kind === 'forbidden') {
      findings.push({ line: lineOf(call), message: `${text(call)}: ${spec.why}` });
      return;
    }
    let positions: number[]; // 0-based into args
    if (spec.kind === 'range') {
      const last = spec.last < 0 ? args.length + spec.last : spec.last - 1;
      positions = [];
      for (let i = spec.first - 1; i <= last && i < args.length; i += spec.step) positions.push(i);
    } else {
      const n = args[spec.numkeysAt - 1];
      if (!n || n.type !== 'NumericLiteral') {
        findings.push({ line: lineOf(call), message: `${text(call)}: numkeys is not a literal, so its keys cannot be checked` });
        return;
      }
      positions = [];
      for (let i = 0; i < spec.extraKeysBefore; i++) positions.push(i);
      for (let i = 0; i < n.value; i++) positions.push(spec.numkeysAt + i);
    }
    const spreadsToEnd = spec.kind === 'range' && spec.last === -1;
    for (const i of positions) {
      const a = args[i];
      if (!a) continue;
      const isLast = i === args.length - 1;
      const value: PendingKey['value'] = isLast && spreadsToEnd && isUnpackKeys(a) ? 'multi-keys' : valueOf(a);
      pending.push({ line: lineOf(a), describe: `${cmd} key argument \`${text(a)}\``, value });
    }
  };

  const visit = (n: Node | null | undefined): void => {
    if (!n) return;
    switch (n.type) {
      case 'LocalStatement': {
        n.init.forEach(visit);
        n.variables.forEach((v, i) => {
          const init = n.init[i];
          // `local a, b = f()` or a missing init: not a KEYS element.
          declare(v, init ? valueOf(init) : 'other');
        });
        return;
      }
      case 'AssignmentStatement': {
        n.init.forEach(visit);
        n.variables.forEach((v, i) => {
          if (v.type === 'Identifier') {
            const b = resolve(v.name);
            const init = n.init[i];
            if (b) b.sources.push(init ? valueOf(init) : 'other');
          } else visit(v);
        });
        return;
      }
      case 'FunctionDeclaration': {
        if (n.identifier && n.isLocal && n.identifier.type === 'Identifier') declare(n.identifier, 'other');
        else visit(n.identifier);
        withScope(() => {
          for (const p of n.parameters) if (p.type === 'Identifier') declare(p, 'other');
          n.body.forEach(visit);
        });
        return;
      }
      case 'ForNumericStatement':
        visit(n.start);
        visit(n.end);
        visit(n.step);
        withScope(() => {
          declare(n.variable, 'other');
          n.body.forEach(visit);
        });
        return;
      case 'ForGenericStatement': {
        n.iterators.forEach(visit);
        const it = n.iterators[0];
        const overKeys =
          n.iterators.length === 1 && it?.type === 'CallExpression' && (isGlobal(it.base, 'ipairs') || isGlobal(it.base, 'pairs')) && it.arguments.length === 1 && isGlobal(it.arguments[0]!, 'KEYS');
        withScope(() => {
          n.variables.forEach((v, i) => declare(v, overKeys && i === 1 ? 'keys' : 'other'));
          n.body.forEach(visit);
        });
        return;
      }
      case 'Chunk':
      case 'DoStatement':
        block(n.body);
        return;
      case 'WhileStatement':
        visit(n.condition);
        block(n.body);
        return;
      case 'RepeatStatement':
        withScope(() => {
          n.body.forEach(visit);
          visit(n.condition);
        });
        return;
      case 'IfStatement':
        for (const c of n.clauses) {
          if (c.type !== 'ElseClause') visit(c.condition);
          block(c.body);
        }
        return;
      case 'CallExpression':
        if (isRedisCall(n.base)) {
          checkRedisCall(n);
          return;
        }
        break;
      case 'StringCallExpression':
      case 'TableCallExpression':
        if (isRedisCall(n.base)) {
          findings.push({ line: lineOf(n), message: `${text(n)}: call redis.call with parentheses so its keys can be checked` });
          return;
        }
        break;
      case 'MemberExpression':
        if (isRedisCall(n)) {
          findings.push({ line: lineOf(n), message: `${text(n)} is used as a value: calls through it cannot be checked` });
          return;
        }
        break;
      default:
        break;
    }
    // Generic descent into child nodes (expressions, call statements, returns, tables, ...).
    for (const [k, v] of Object.entries(n)) {
      if (k === 'loc' || k === 'range') continue;
      if (Array.isArray(v)) for (const x of v) isNode(x) && visit(x);
      else if (isNode(v)) visit(v);
    }
  };
  visit(chunk);

  const fromKeys = (v: PendingKey['value'], seen = new Set<Binding>()): boolean => {
    if (v === 'keys' || v === 'multi-keys') return true;
    if (v === 'other') return false;
    if (seen.has(v)) return true; // a cycle adds no new source
    seen.add(v);
    return v.sources.every((s) => fromKeys(s, seen));
  };
  for (const p of pending) {
    if (!fromKeys(p.value)) findings.push({ line: p.line, message: `${p.describe} is not from KEYS: declare every key the script touches in KEYS` });
  }
  return findings.sort((a, b) => a.line - b.line);
}

function isNode(x: unknown): x is Node {
  return typeof x === 'object' && x !== null && typeof (x as { type?: unknown }).type === 'string';
}
