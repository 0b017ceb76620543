import type { Expression, FunctionDeclaration, Identifier, Node, Statement } from 'luaparse';
import { atom, NIL, OTHER, type Binding, type CallRec, type FnInfo, type TableInfo, type Val } from './values.js';

/**
 * One walk over the syntax tree that records what the data flow needs: every call (its callee and
 * argument values, still lazy), every store into an indexed place, the functions and the globals.
 * Nothing is judged here; see evaluate.ts.
 */
export interface Facts {
  readonly calls: CallRec[];
  readonly stores: Store[];
  /** `KEYS = …` (the global itself reassigned). */
  readonly keysAssigned: Node[];
  readonly globals: Map<string, Binding>;
  readonly fns: FnInfo[];
  /** The script reaches functions by name at run time (_G, getfenv, loadstring, …): a global function may run unseen. */
  dynamicLookup: boolean;
}

/** `t[k] = v` / `t.k = v` / `function t.k()`: linked to the tables `t` may be. */
export interface Store {
  readonly base: Val;
  readonly key: Val;
  readonly value: Val;
  readonly node: Node;
  readonly linked: Set<unknown>;
  /** The function the store is inside (undefined at the top level). */
  readonly inFn?: FnInfo;
}

/** Globals through which a script can reach a function without naming it where the walk sees. */
const DYNAMIC_LOOKUP = new Set(['_G', 'getfenv', 'setfenv', 'loadstring', 'load', 'dofile', 'loadfile', 'require', 'module', 'debug', 'rawget']);

type Scope = Map<string, Binding>;

export function walk(chunk: { body: Statement[] }): Facts {
  const facts: Facts = { calls: [], stores: [], keysAssigned: [], globals: new Map(), fns: [], dynamicLookup: false };
  const scopes: Scope[] = [new Map()];
  const fnStack: FnInfo[] = [];

  const resolve = (name: string): Binding | undefined => {
    for (let i = scopes.length - 1; i >= 0; i--) {
      const b = scopes[i]!.get(name);
      if (b) return b;
    }
    return undefined;
  };
  const declare = (name: string, source: Val, paramOf?: FnInfo): Binding => {
    const b: Binding = { name, sources: [source], ...(paramOf && { paramOf }), uses: [] };
    scopes[scopes.length - 1]!.set(name, b);
    return b;
  };
  const global = (name: string): Binding => {
    let g = facts.globals.get(name);
    if (!g) facts.globals.set(name, (g = { name, sources: [], uses: [] }));
    return g;
  };
  const here = (): FnInfo | undefined => fnStack[fnStack.length - 1];
  const scoped = (fn: () => void) => {
    scopes.push(new Map());
    try {
      fn();
    } finally {
      scopes.pop();
    }
  };

  const isMulti = (e: Expression | undefined) =>
    e !== undefined && (e.type === 'CallExpression' || e.type === 'StringCallExpression' || e.type === 'TableCallExpression' || e.type === 'VarargLiteral');

  const call = (node: Node, base: Expression, args: Expression[]): Val => {
    const callee = expr(base);
    const inFn = here();
    const rec: CallRec = { node, callee, args: args.map(expr), argNodes: args, spread: isMulti(args[args.length - 1]), linked: new Set(), ...(inFn && { inFn }) };
    facts.calls.push(rec);
    return { t: 'result', rec };
  };

  const newFn = (name: string): FnInfo => {
    const parent = here();
    const info: FnInfo = { kind: 'fn', name, params: [], returns: [], calls: 0, escaped: false, ...(parent && { parent }) };
    facts.fns.push(info);
    return info;
  };
  const fnBody = (n: FunctionDeclaration, info: FnInfo, method: boolean) =>
    scoped(() => {
      if (method) info.params.push(declare('self', { t: 'union', parts: [] }, info));
      for (const p of n.parameters) if (p.type === 'Identifier') info.params.push(declare(p.name, { t: 'union', parts: [] }, info));
      fnStack.push(info);
      try {
        n.body.forEach(stmt);
      } finally {
        fnStack.pop();
      }
    });

  const expr = (e: Expression): Val => {
    switch (e.type) {
      case 'Identifier':
        return identifier(e);
      case 'StringLiteral':
        return atom(`s:${(e.value as string | null) ?? e.raw.slice(1, -1)}`);
      case 'NumericLiteral':
        return atom(`s:${e.value}`);
      case 'NilLiteral':
        return NIL;
      case 'BooleanLiteral':
      case 'VarargLiteral':
        return OTHER;
      case 'FunctionDeclaration': {
        const info = newFn('function');
        fnBody(e, info, false);
        return atom(info);
      }
      case 'TableConstructorExpression': {
        const info: TableInfo = { kind: 'table', fields: new Map(), items: [] };
        for (const f of e.fields) {
          if (f.type === 'TableKeyString') addField(info, f.key.name, expr(f.value));
          else if (f.type === 'TableKey') {
            const k = f.key.type === 'StringLiteral' ? (f.key.value ?? undefined) : undefined;
            const v = expr(f.value);
            if (k !== undefined) addField(info, k, v);
            else {
              expr(f.key);
              info.items.push(v);
            }
          } else info.items.push(expr(f.value));
        }
        return atom(info);
      }
      case 'BinaryExpression': {
        const l = expr(e.left);
        const r = expr(e.right);
        return e.operator === '..' ? { t: 'concat', left: l, right: r } : OTHER;
      }
      case 'LogicalExpression': {
        const l = expr(e.left);
        const r = expr(e.right);
        return e.operator === 'or' ? { t: 'union', parts: [l, r] } : r;
      }
      case 'UnaryExpression':
        expr(e.argument);
        return OTHER;
      case 'MemberExpression':
        return { t: 'index', base: expr(e.base), key: atom(`s:${e.identifier.name}`) };
      case 'IndexExpression':
        return { t: 'index', base: expr(e.base), key: expr(e.index) };
      case 'CallExpression': {
        if (e.base.type === 'MemberExpression' && e.base.indexer === ':') {
          // a:m(x) is a.m(a, x): the object is evaluated once, for the callee and as the first argument.
          const self = expr(e.base.base);
          const callee: Val = { t: 'index', base: self, key: atom(`s:${e.base.identifier.name}`) };
          const inFn = here();
          const rec: CallRec = {
            node: e,
            callee,
            args: [self, ...e.arguments.map(expr)],
            argNodes: [e.base.base, ...e.arguments],
            spread: isMulti(e.arguments[e.arguments.length - 1]),
            linked: new Set(),
            ...(inFn && { inFn }),
          };
          facts.calls.push(rec);
          return { t: 'result', rec };
        }
        return call(e, e.base, e.arguments);
      }
      case 'StringCallExpression':
        return call(e, e.base, [e.argument]);
      case 'TableCallExpression':
        return call(e, e.base, [e.arguments]);
    }
  };

  /** A read of a name: recorded where it happens (what makes a named function reachable). */
  const identifier = (id: Identifier): Val => {
    const b = resolve(id.name);
    const use = here() ?? null;
    if (b) {
      b.uses?.push(use);
      return { t: 'ref', b };
    }
    if (DYNAMIC_LOOKUP.has(id.name)) facts.dynamicLookup = true;
    global(id.name).uses?.push(use);
    return { t: 'global', name: id.name };
  };

  const addField = (t: TableInfo, k: string, v: Val) => {
    const list = t.fields.get(k);
    if (list) list.push(v);
    else t.fields.set(k, [v]);
  };

  /** Values of an expression list spread over n targets: a trailing call fills the rest. */
  const spreadOver = (init: Expression[], vals: Val[], n: number): Val[] => {
    const out: Val[] = [];
    for (let i = 0; i < n; i++) {
      if (i < vals.length) out.push(vals[i]!);
      else out.push(isMulti(init[init.length - 1]) ? vals[vals.length - 1]! : NIL);
    }
    return out;
  };

  const assignTo = (target: Identifier | Expression, value: Val, node: Node) => {
    if (target.type === 'Identifier') {
      const b = resolve(target.name);
      if (b) b.sources.push(value);
      else {
        if (target.name === 'KEYS') facts.keysAssigned.push(node);
        global(target.name).sources.push(value);
      }
    } else if (target.type === 'MemberExpression') {
      const inFn = here();
      facts.stores.push({ base: expr(target.base), key: atom(`s:${target.identifier.name}`), value, node: target, linked: new Set(), ...(inFn && { inFn }) });
    } else if (target.type === 'IndexExpression') {
      const inFn = here();
      facts.stores.push({ base: expr(target.base), key: expr(target.index), value, node: target, linked: new Set(), ...(inFn && { inFn }) });
    }
  };

  const stmt = (s: Statement): void => {
    switch (s.type) {
      case 'LocalStatement': {
        const vals = s.init.map(expr);
        const spread = spreadOver(s.init, vals, s.variables.length);
        s.variables.forEach((v, i) => {
          const b = declare(v.name, spread[i]!);
          // `local f = function … end`: f is the function's name.
          const init = vals[i];
          if (s.init[i]?.type === 'FunctionDeclaration' && init?.t === 'atom' && typeof init.a === 'object' && init.a.kind === 'fn') init.a.boundTo = b;
        });
        return;
      }
      case 'AssignmentStatement': {
        const vals = s.init.map(expr);
        const spread = spreadOver(s.init, vals, s.variables.length);
        s.variables.forEach((v, i) => assignTo(v, spread[i]!, s));
        return;
      }
      case 'CallStatement':
        expr(s.expression);
        return;
      case 'FunctionDeclaration': {
        const id = s.identifier;
        const method = id?.type === 'MemberExpression' && id.indexer === ':';
        const name = id ? (id.type === 'Identifier' ? id.name : `${exprName(id.base)}${id.indexer}${id.identifier.name}`) : 'function';
        const info = newFn(name);
        // `local function f` is visible in its own body (recursion): bind before the body.
        if (id?.type === 'Identifier' && s.isLocal) info.boundTo = declare(id.name, atom(info));
        else if (id) {
          assignTo(id, atom(info), s);
          // `function f()` assigns f (a local in scope, else the global).
          if (id.type === 'Identifier') info.boundTo = resolve(id.name) ?? global(id.name);
        }
        fnBody(s, info, method);
        return;
      }
      case 'ReturnStatement': {
        const vals = s.arguments.map(expr);
        const fn = fnStack[fnStack.length - 1];
        if (fn && vals[0]) fn.returns.push(vals[0]);
        return;
      }
      case 'IfStatement':
        for (const c of s.clauses) {
          if (c.type !== 'ElseClause') expr(c.condition);
          scoped(() => c.body.forEach(stmt));
        }
        return;
      case 'WhileStatement':
        expr(s.condition);
        scoped(() => s.body.forEach(stmt));
        return;
      case 'RepeatStatement':
        scoped(() => {
          s.body.forEach(stmt);
          expr(s.condition);
        });
        return;
      case 'DoStatement':
        scoped(() => s.body.forEach(stmt));
        return;
      case 'ForNumericStatement':
        expr(s.start);
        expr(s.end);
        if (s.step) expr(s.step);
        scoped(() => {
          declare(s.variable.name, OTHER);
          s.body.forEach(stmt);
        });
        return;
      case 'ForGenericStatement': {
        const its = s.iterators.map(expr);
        const only = its.length === 1 ? its[0] : undefined;
        const it = only?.t === 'result' ? only.rec : undefined;
        // for _, v in ipairs(t) / pairs(t): v holds t's elements (decided lazily: ipairs may be shadowed).
        const value: Val = it && it.args.length === 1 ? { t: 'iter', fn: it.callee, of: it.args[0]! } : OTHER;
        scoped(() => {
          s.variables.forEach((v, i) => declare(v.name, i === 1 ? value : OTHER));
          s.body.forEach(stmt);
        });
        return;
      }
      default:
        return; // labels, goto, break
    }
  };
  chunk.body.forEach(stmt);
  return facts;
}

function exprName(e: Expression): string {
  if (e.type === 'Identifier') return e.name;
  if (e.type === 'MemberExpression') return `${exprName(e.base)}${e.indexer}${e.identifier.name}`;
  return '?';
}
