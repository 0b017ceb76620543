import type { Node } from 'luaparse';

/**
 * The abstract values of the data flow: what an expression may hold, as far as key provenance and
 * the call function go. Expressions are kept lazy (a variable is a reference to its binding, whose
 * sources grow as the walk meets assignments and call sites) and classified into atoms at the end,
 * when every assignment and call site is known. Flow-insensitive on purpose: a local that ever
 * holds an undeclared key is undeclared everywhere.
 */

/** What a value may be. Strings: 'declared' (a KEYS element), 'argv-table' (ARGV, or a Functions callback's args), 'derived' (a string that begins with a declared key, or with text free of '{' and then one: the same hash tag), 'other', 'keys-table', 'redis' (also `server`), 'call', 'pcall', 'register' (register_function of a Functions library), 'nil', 's:<literal text>', 'b:<builtin>'. */
export type Atom = string | FnInfo | TableInfo;

export interface Binding {
  readonly name: string;
  readonly sources: Val[];
  /** The function this is a parameter of. */
  readonly paramOf?: FnInfo;
  /** Where the name is read (not assigned): the function each read is in, null at the top level. */
  readonly uses?: (FnInfo | null)[];
}

export interface FnInfo {
  readonly kind: 'fn';
  readonly name: string;
  readonly params: Binding[];
  readonly returns: Val[];
  /** Call sites linked to it; none (or an escape) means its parameters can hold anything. */
  calls: number;
  escaped: boolean;
  /** The function its definition is inside (undefined at the top level). */
  readonly parent?: FnInfo;
  /**
   * The name it is defined under (`local function f`, `local f = function`, `function f` for a
   * global): it runs only if that name is read somewhere that runs. Undefined for a function that
   * is a value (an argument, a table field, `function M.f`): as reachable as the code around it.
   */
  boundTo?: Binding;
}

export interface TableInfo {
  readonly kind: 'table';
  /** Values stored under a literal string field. */
  readonly fields: Map<string, Val[]>;
  /** Array items and values stored under a computed key. */
  readonly items: Val[];
}

export interface CallRec {
  readonly node: Node;
  /** The function the call is inside (undefined at the top level). */
  readonly inFn?: FnInfo;
  readonly callee: Val;
  readonly args: readonly Val[];
  readonly argNodes: readonly (Node | undefined)[];
  /** The last argument is a call or `...`: it stands for zero or more values. */
  readonly spread: boolean;
  /** Functions and tables already linked from this call site (the fixpoint adds each edge once). */
  readonly linked: Set<unknown>;
}

export type Val =
  | { readonly t: 'atom'; readonly a: Atom }
  | { readonly t: 'ref'; readonly b: Binding }
  | { readonly t: 'global'; readonly name: string }
  | { readonly t: 'index'; readonly base: Val; readonly key: Val }
  | { readonly t: 'result'; readonly rec: CallRec }
  | { readonly t: 'elements'; readonly of: Val }
  /** The value variable of `for _, v in fn(of)`: of's elements when fn is ipairs or pairs. */
  | { readonly t: 'iter'; readonly fn: Val; readonly of: Val }
  | { readonly t: 'concat'; readonly left: Val; readonly right: Val }
  | { readonly t: 'union'; readonly parts: readonly Val[] };

export const atom = (a: Atom): Val => ({ t: 'atom', a });
export const OTHER = atom('other');
export const NIL = atom('nil');

/** Builtins by global name; every other unassigned global is 'other'. */
const GLOBAL_ATOMS: Readonly<Record<string, Atom>> = {
  KEYS: 'keys-table',
  ARGV: 'argv-table',
  redis: 'redis',
  // Valkey 8 names the same library `server` (server.call, server.pcall, server.register_function…).
  server: 'redis',
  unpack: 'b:unpack',
  pcall: 'b:pcall',
  xpcall: 'b:xpcall',
  loadstring: 'b:loadstring',
  load: 'b:loadstring',
  dofile: 'b:loadstring',
  loadfile: 'b:loadstring',
  table: 'b:table',
  string: 'b:string',
  tostring: 'b:tostring',
  rawset: 'b:rawset',
  ipairs: 'b:ipairs',
  pairs: 'b:pairs',
};

const MEMBERS: Readonly<Record<string, Readonly<Record<string, Atom>>>> = {
  redis: { call: 'call', pcall: 'pcall', register_function: 'register' },
  'b:table': { insert: 'b:table.insert', remove: 'b:table.remove', unpack: 'b:unpack' },
  'b:string': { format: 'b:string.format', match: 'b:string.match' },
};
/** Methods of a string value (`KEYS[1]:match(…)`). */
const STRING_METHODS: Readonly<Record<string, Atom>> = { format: 'b:string.format', match: 'b:string.match' };

const isStringish = (a: Atom) => a === 'declared' || a === 'derived' || (typeof a === 'string' && a.startsWith('s:'));

/** Classifies lazy values; one instance per question (its cache holds while the graph does not change). */
export class Classifier {
  private readonly cache = new Map<Val | Binding, Set<Atom>>();
  private readonly active = new Set<Val | Binding>();

  /** ARGV positions declared to hold a key prefix carrying the hash tag (`--key-prefix-arg`). */
  private readonly prefixArgs: ReadonlySet<string>;

  constructor(
    private readonly globals: ReadonlyMap<string, Binding>,
    keyPrefixArgs: readonly number[] = [],
  ) {
    this.prefixArgs = new Set(keyPrefixArgs.map(String));
  }

  atoms(v: Val): Set<Atom> {
    const hit = this.cache.get(v);
    if (hit) return hit;
    if (this.active.has(v)) return new Set(); // a cycle adds no new source
    this.active.add(v);
    const out = this.compute(v);
    this.active.delete(v);
    this.cache.set(v, out);
    return out;
  }

  /** The single literal text a value holds, if it holds exactly one. */
  literal(v: Val): string | undefined {
    const s = this.atoms(v);
    if (s.size !== 1) return undefined;
    const [a] = s;
    return typeof a === 'string' && a.startsWith('s:') ? a.slice(2) : undefined;
  }

  private binding(b: Binding): Set<Atom> {
    const hit = this.cache.get(b);
    if (hit) return hit;
    if (this.active.has(b)) return new Set();
    this.active.add(b);
    const out = new Set<Atom>();
    for (const s of b.sources) for (const a of this.atoms(s)) out.add(a);
    this.active.delete(b);
    this.cache.set(b, out);
    return out;
  }

  private compute(v: Val): Set<Atom> {
    switch (v.t) {
      case 'atom':
        return new Set([v.a]);
      case 'ref':
        return this.binding(v.b);
      case 'global': {
        const out = new Set<Atom>([GLOBAL_ATOMS[v.name] ?? 'other']);
        const assigned = this.globals.get(v.name);
        if (assigned) for (const a of this.binding(assigned)) out.add(a);
        return out;
      }
      case 'index':
        return this.index(v.base, v.key);
      case 'result':
        return this.result(v.rec);
      case 'elements':
        return this.elements(v.of);
      case 'iter': {
        const fn = this.atoms(v.fn);
        return fn.size > 0 && [...fn].every((a) => a === 'b:ipairs' || a === 'b:pairs') ? this.elements(v.of) : new Set<Atom>(['other']);
      }
      case 'concat':
        return new Set([this.concatAtom(v.left, v.right)]);
      case 'union': {
        const out = new Set<Atom>();
        for (const p of v.parts) for (const a of this.atoms(p)) out.add(a);
        return out;
      }
    }
  }

  private index(base: Val, key: Val): Set<Atom> {
    const name = this.literal(key);
    const out = new Set<Atom>();
    for (const a of this.atoms(base)) {
      if (a === 'keys-table') out.add('declared');
      // A declared key prefix (ARGV[n] carries the tag): a key built from it is judged by that tag.
      else if (a === 'argv-table') out.add(name !== undefined && this.prefixArgs.has(name) ? 'derived' : 'other');
      else if (typeof a === 'object' && a.kind === 'table') {
        const vals = name !== undefined ? [...(a.fields.get(name) ?? []), ...a.items] : [...a.items, ...[...a.fields.values()].flat()];
        if (vals.length === 0) out.add('nil');
        for (const x of vals) for (const y of this.atoms(x)) out.add(y);
      } else if (typeof a === 'string' && MEMBERS[a]) {
        // A computed member of redis (`redis[name]`) may be the call function: check calls through it.
        out.add(name === undefined ? (a === 'redis' ? 'call' : 'other') : (MEMBERS[a]![name] ?? 'other'));
      } else if (isStringish(a) && name !== undefined && STRING_METHODS[name]) out.add(STRING_METHODS[name]!);
      else out.add('other');
    }
    return out;
  }

  private elements(of: Val): Set<Atom> {
    const out = new Set<Atom>();
    for (const a of this.atoms(of)) {
      if (a === 'keys-table') out.add('declared');
      else if (typeof a === 'object' && a.kind === 'table') {
        for (const x of [...a.items, ...[...a.fields.values()].flat()]) for (const y of this.atoms(x)) out.add(y);
      } else out.add('other');
    }
    if (out.size === 0) out.add('other');
    return out;
  }

  /** Whether every atom is a declared key or a string carrying its hash tag. */
  private keyish(v: Val): boolean {
    const s = this.atoms(v);
    return s.size > 0 && [...s].every((a) => a === 'declared' || a === 'derived');
  }

  private concatAtom(left: Val, right: Val): Atom {
    if (this.keyish(left)) return 'derived';
    // Valkey hashes the text inside the FIRST '{…}': a literal prefix without '{' keeps the right side's tag.
    const lit = this.literal(left);
    if (lit !== undefined && !lit.includes('{') && this.keyish(right)) return 'derived';
    if (lit !== undefined && this.literal(right) !== undefined) return `s:${lit}${this.literal(right)!}`;
    return 'other';
  }

  private result(rec: CallRec): Set<Atom> {
    const out = new Set<Atom>();
    for (const a of this.atoms(rec.callee)) {
      if (typeof a === 'object' && a.kind === 'fn') {
        if (a.returns.length === 0) out.add('nil');
        for (const r of a.returns) for (const x of this.atoms(r)) out.add(x);
      } else if (a === 'b:unpack') {
        for (const x of rec.args[0] ? this.elements(rec.args[0]) : ['other']) out.add(x);
      } else if (a === 'b:tostring') {
        for (const x of rec.args[0] ? this.atoms(rec.args[0]) : ['other']) out.add(x);
      } else if (a === 'b:string.format') {
        // string.format('%s:suffix', KEYS[1]) begins with the key.
        const fmt = rec.args[0] ? this.literal(rec.args[0]) : undefined;
        out.add(fmt?.startsWith('%s') && rec.args[1] && this.keyish(rec.args[1]) ? 'derived' : 'other');
      } else if (a === 'b:string.match') {
        // string.match(KEYS[1], '{.-}') is the key's own hash tag.
        const pat = rec.args[1] ? this.literal(rec.args[1]) : undefined;
        out.add(pat?.includes('{') && rec.args[0] && this.keyish(rec.args[0]) ? 'derived' : 'other');
      } else out.add('other');
    }
    if (out.size === 0) out.add('other');
    return out;
  }
}

/** How a key value stands: declared, built from a declared key (same hash tag), or from anywhere. */
export type KeyStanding = 'declared' | 'same-tag' | 'undeclared';

export function standing(atoms: ReadonlySet<Atom>): KeyStanding {
  if (atoms.size === 0) return 'undeclared';
  let derived = false;
  for (const a of atoms) {
    if (a === 'derived') derived = true;
    else if (a !== 'declared') return 'undeclared';
  }
  return derived ? 'same-tag' : 'declared';
}
