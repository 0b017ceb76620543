import { TlcOutputError } from './tlc-errors.js';

/**
 * TLA+ values as TLC prints them in traces and state dumps: integers, strings, booleans, model
 * values, records `[a |-> 1]`, functions `(p1 :> "O" @@ p2 :> "A")`, sets `{..}`, tuples `<<..>>`,
 * and integer intervals `1..3` (TLC keeps an interval lazy and prints it as `lo..hi`, also inside
 * other values; an empty one prints as `{}`). Lazy sets such as `SUBSET S` or `[S -> T]` are
 * enumerated by TLC before a state is printed (checked on test/tlc/specs/Values.tla).
 */
export type TlaValue =
  | { readonly kind: 'int'; readonly value: number }
  | { readonly kind: 'str'; readonly value: string }
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'mv'; readonly name: string }
  | { readonly kind: 'record'; readonly fields: Readonly<Record<string, TlaValue>> }
  | { readonly kind: 'fn'; readonly entries: readonly (readonly [TlaValue, TlaValue])[] }
  | { readonly kind: 'set'; readonly items: readonly TlaValue[] }
  | { readonly kind: 'seq'; readonly items: readonly TlaValue[] }
  | { readonly kind: 'interval'; readonly lo: number; readonly hi: number }
  /** A value this parser could not read: kept as TLC's text so the rest of the result survives. */
  | { readonly kind: 'unreadable'; readonly text: string; readonly error: string };

/** Parses one TLA+ value; throws TlcOutputError naming the offset on anything else. */
export function parseTlaValue(text: string): TlaValue {
  const p = new Parser(text);
  const v = p.value();
  p.skipWs();
  if (!p.done()) p.fail('trailing text after value');
  return v;
}

/** The value's key as a plain string: a model value's name, a string's text, an integer's digits. */
export function atomText(v: TlaValue): string {
  switch (v.kind) {
    case 'mv':
      return v.name;
    case 'str':
      return v.value;
    case 'int':
      return String(v.value);
    case 'bool':
      return v.value ? 'TRUE' : 'FALSE';
    default:
      throw new TlcOutputError(`expected an atom, got a ${v.kind}`);
  }
}

class Parser {
  private i = 0;
  constructor(private readonly s: string) {}

  done(): boolean {
    return this.i >= this.s.length;
  }

  fail(msg: string): never {
    const near = this.s.slice(Math.max(0, this.i - 20), this.i + 20).replace(/\s+/g, ' ');
    throw new TlcOutputError(`cannot parse TLA+ value: ${msg} at offset ${this.i} (near "${near}")`);
  }

  skipWs(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i]!)) this.i++;
  }

  private eat(tok: string): boolean {
    this.skipWs();
    if (this.s.startsWith(tok, this.i)) {
      this.i += tok.length;
      return true;
    }
    return false;
  }

  private expect(tok: string): void {
    if (!this.eat(tok)) this.fail(`expected "${tok}"`);
  }

  value(): TlaValue {
    this.skipWs();
    const c = this.s[this.i];
    if (c === undefined) this.fail('unexpected end of value');
    if (c === '"') return { kind: 'str', value: this.string() };
    if (c === '[') return this.record();
    if (c === '(') return this.fn();
    if (c === '{') return { kind: 'set', items: this.list('{', '}') };
    if (this.s.startsWith('<<', this.i)) return { kind: 'seq', items: this.list('<<', '>>') };
    const num = /^-?\d+/.exec(this.s.slice(this.i));
    if (num) {
      this.i += num[0].length;
      const hi = /^\.\.(-?\d+)/.exec(this.s.slice(this.i));
      if (hi) {
        this.i += hi[0].length;
        return { kind: 'interval', lo: Number(num[0]), hi: Number(hi[1]) };
      }
      return { kind: 'int', value: Number(num[0]) };
    }
    const id = this.ident();
    if (id === 'TRUE' || id === 'FALSE') return { kind: 'bool', value: id === 'TRUE' };
    return { kind: 'mv', name: id };
  }

  private ident(): string {
    this.skipWs();
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.s.slice(this.i));
    if (!m) this.fail('expected a value');
    this.i += m[0].length;
    return m[0];
  }

  private string(): string {
    this.expect('"');
    let out = '';
    for (;;) {
      const c = this.s[this.i++];
      if (c === undefined) this.fail('unterminated string');
      if (c === '"') return out;
      if (c === '\\') {
        const e = this.s[this.i++];
        // StringValue.PrintVersion escapes exactly \" \\ \t \n \f \r.
        out += e === 'n' ? '\n' : e === 't' ? '\t' : e === 'f' ? '\f' : e === 'r' ? '\r' : (e ?? '');
      } else out += c;
    }
  }

  private record(): TlaValue {
    this.expect('[');
    const fields: Record<string, TlaValue> = {};
    if (this.eat(']')) return { kind: 'record', fields };
    do {
      const name = this.ident();
      this.expect('|->');
      fields[name] = this.value();
    } while (this.eat(','));
    this.expect(']');
    return { kind: 'record', fields };
  }

  private fn(): TlaValue {
    this.expect('(');
    const entries: (readonly [TlaValue, TlaValue])[] = [];
    do {
      const k = this.value();
      this.expect(':>');
      entries.push([k, this.value()]);
    } while (this.eat('@@'));
    this.expect(')');
    return { kind: 'fn', entries };
  }

  private list(open: string, close: string): TlaValue[] {
    this.expect(open);
    const items: TlaValue[] = [];
    if (this.eat(close)) return items;
    do items.push(this.value());
    while (this.eat(','));
    this.expect(close);
    return items;
  }
}

/**
 * Parses a state as TLC prints it: `/\ name = value` lines (a value may continue on indented
 * lines), or a single `name = value` line for one-variable specs.
 */
export function parseTlaState(block: string): Record<string, TlaValue> {
  const { vars, unreadable } = readTlaState(block);
  const bad = unreadable[0];
  if (bad) throw new TlcOutputError(`variable ${bad.variable}: ${bad.message}`);
  return vars;
}

export interface UnreadableValue {
  readonly variable: string;
  readonly message: string;
}

/**
 * parseTlaState without giving up on the first bad value: a value that cannot be parsed becomes
 * `{ kind: 'unreadable' }` and is listed with its variable, so a caller keeps every other variable
 * (and TLC's outcome and counts). A line that is not `name = value` at all still throws.
 */
export function readTlaState(block: string): { vars: Record<string, TlaValue>; unreadable: UnreadableValue[] } {
  const vars: Record<string, TlaValue> = {};
  const unreadable: UnreadableValue[] = [];
  const chunks: string[] = [];
  for (const line of block.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('/\\ ') || chunks.length === 0) chunks.push(line.replace(/^\/\\ /, ''));
    else chunks[chunks.length - 1] += `\n${line}`;
  }
  for (const chunk of chunks) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*([\s\S]*)$/.exec(chunk.trim());
    if (!m) throw new TlcOutputError(`cannot parse state line "${chunk.trim().slice(0, 80)}"`);
    try {
      vars[m[1]!] = parseTlaValue(m[2]!);
    } catch (err) {
      if (!(err instanceof TlcOutputError)) throw err;
      vars[m[1]!] = { kind: 'unreadable', text: m[2]!.trim(), error: err.message };
      unreadable.push({ variable: m[1]!, message: err.message });
    }
  }
  return { vars, unreadable };
}

/** How a value is printed as the source of a module rather than shown: what to do with a value this parser could not read. */
export interface TlaSourceText {
  readonly unreadable: (text: string) => string;
}

/**
 * The value in TLA+ syntax, as TLC would print it (for tables and messages). With `source`, as text
 * a module can hold: an empty record or function is `<<>>` (TLA+ has no empty record literal), and an
 * unreadable value is `source.unreadable`'s answer (which may throw).
 */
export function formatTlaValue(v: TlaValue, source?: TlaSourceText): string {
  const f = (x: TlaValue): string => formatTlaValue(x, source);
  switch (v.kind) {
    case 'int':
      return String(v.value);
    case 'str':
      return JSON.stringify(v.value);
    case 'bool':
      return v.value ? 'TRUE' : 'FALSE';
    case 'mv':
      return v.name;
    case 'interval':
      return `${v.lo}..${v.hi}`;
    case 'record':
      if (source && Object.keys(v.fields).length === 0) return '<<>>';
      return `[${Object.entries(v.fields)
        .map(([k, x]) => `${k} |-> ${f(x)}`)
        .join(', ')}]`;
    case 'fn':
      if (source && v.entries.length === 0) return '<<>>';
      return `(${v.entries.map(([k, x]) => `${f(k)} :> ${f(x)}`).join(' @@ ')})`;
    case 'set':
      return `{${v.items.map(f).join(', ')}}`;
    case 'seq':
      return `<<${v.items.map(f).join(', ')}>>`;
    case 'unreadable':
      return source ? source.unreadable(v.text) : v.text;
  }
}
