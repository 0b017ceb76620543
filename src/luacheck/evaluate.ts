import type { Node } from 'luaparse';
import { keyPositions, lookupCommand, type ArgvView } from './key-positions.js';
import type { KeySpecSnapshot } from './keyspecs.js';
import type { FindingKind } from './findings.js';
import { atom, Classifier, OTHER, standing, type Atom, type CallRec, type FnInfo, type Val } from './values.js';
import type { Facts } from './walk.js';

/** A finding before it is placed in a file: the node gives line and column. */
export interface RawFinding {
  readonly node: Node;
  readonly kind: FindingKind;
  readonly command?: string;
  /** The key expression's node (its text is the finding's `key`). */
  readonly keyNode?: Node;
  readonly message: string;
  /** Set when the finding is in code the script never runs: the function that is never used. */
  readonly unreachable?: string;
}

/** Commands that reach keys without naming them: never legal in a script that declares its keys. */
const KEYSPACE_WIDE: ReadonlySet<string> = new Set(['KEYS', 'SCAN', 'RANDOMKEY', 'FLUSHALL', 'FLUSHDB', 'SWAPDB']);

const isFn = (a: Atom): a is FnInfo => typeof a === 'object' && a.kind === 'fn';
const isCallFn = (a: Atom) => a === 'call' || a === 'pcall';

/**
 * Links call sites to functions and tables (a parameter's sources are the arguments of every call
 * that reaches it), to a fixpoint, then judges every redis.call / pcall and every store.
 */
export function evaluate(facts: Facts, snapshot: KeySpecSnapshot, text: (n: Node) => string, keyPrefixArgs: readonly number[] = []): RawFinding[] {
  const findings: RawFinding[] = [];
  const once = new Set<string>();
  const reportOnce = (f: RawFinding, id = `${f.kind}@${loc(f.keyNode ?? f.node)}`) => {
    if (once.has(id)) return;
    once.add(id);
    findings.push(f);
  };
  /** redis.call reached through pcall(redis.call, …): the arguments after the function. */
  const viaPcall: CallRec[] = [];

  const link = (c: Classifier): boolean => {
    let changed = false;
    const edge = (rec: CallRec, target: unknown, add: () => void) => {
      if (rec.linked.has(target)) return;
      rec.linked.add(target);
      add();
      changed = true;
    };
    const callFn = (rec: CallRec, fn: FnInfo, args: readonly Val[], spread: boolean) =>
      edge(rec, fn, () => {
        fn.calls++;
        fn.params.forEach((p, i) => p.sources.push(i < args.length ? args[i]! : spread && args.length > 0 ? args[args.length - 1]! : OTHER));
      });
    for (const rec of facts.calls) {
      const callee = c.atoms(rec.callee);
      let sink = true;
      for (const a of callee) {
        if (isFn(a)) {
          callFn(rec, a, rec.args, rec.spread);
          sink = false;
        } else if (isCallFn(a)) sink = false;
        else if ((a === 'b:pcall' || a === 'b:xpcall') && rec.args[0]) {
          // pcall(f, a, b) calls f(a, b); xpcall(f, handler, …) in 5.1 passes no arguments.
          const fnArgs = a === 'b:pcall' ? rec.args.slice(1) : [];
          for (const f of c.atoms(rec.args[0])) {
            if (isFn(f)) callFn(rec, f, fnArgs, rec.spread);
            else if (isCallFn(f) && a === 'b:pcall')
              edge(rec, 'pcall-call', () =>
                viaPcall.push({
                  node: rec.node,
                  callee: rec.args[0]!,
                  args: rec.args.slice(1),
                  argNodes: rec.argNodes.slice(1),
                  spread: rec.spread,
                  linked: new Set(),
                  ...(rec.inFn && { inFn: rec.inFn }),
                }),
              );
          }
          sink = false;
        } else if (a === 'register') {
          // A Functions library: the server calls the callback with (keys, args), keys being the declared list.
          for (const fn of callbacks(c, rec))
            edge(rec, fn, () => {
              fn.calls++;
              fn.params.forEach((p, i) => p.sources.push(i === 0 ? atom('keys-table') : i === 1 ? atom('argv-table') : OTHER));
            });
          sink = false;
        } else if (a === 'b:table.insert' || a === 'b:rawset') {
          const target = rec.args[0];
          const value = rec.args[rec.args.length - 1];
          if (target && value) for (const t of c.atoms(target)) if (typeof t === 'object' && t.kind === 'table') edge(rec, t, () => t.items.push(value));
        }
      }
      // Arguments handed to code the walk cannot follow: functions there can be called with anything.
      if (sink) for (const arg of rec.args) for (const a of c.atoms(arg)) if (isFn(a) && !a.escaped) edge(rec, `escape:${a.name}`, () => (a.escaped = true));
    }
    for (const s of facts.stores) {
      for (const t of c.atoms(s.base)) {
        if (typeof t !== 'object' || t.kind !== 'table') continue;
        const key = c.literal(s.key);
        if (s.linked.has(t)) continue;
        s.linked.add(t);
        if (key !== undefined) {
          const list = t.fields.get(key);
          if (list) list.push(s.value);
          else t.fields.set(key, [s.value]);
        } else t.items.push(s.value);
        changed = true;
      }
    }
    return changed;
  };

  const fixpoint = () => {
    for (let i = 0; i < 50 && link(new Classifier(facts.globals, keyPrefixArgs)); i++);
  };
  fixpoint();
  // A function nobody calls where the walk can see it (or that escapes) can get anything.
  for (const fn of facts.fns) if (fn.calls === 0 || fn.escaped) for (const p of fn.params) p.sources.push(OTHER);
  fixpoint();

  const c = new Classifier(facts.globals, keyPrefixArgs);
  const deadIn = unreachableCode(facts);
  /** Reports a finding of code inside `inFn`, marked when that code never runs. */
  const within = (inFn: FnInfo | undefined) => (f: RawFinding, id?: string) => {
    const dead = deadIn(inFn);
    reportOnce(dead === undefined ? f : { ...f, unreachable: dead }, id);
  };
  for (const node of facts.keysAssigned) reportOnce({ node, kind: 'keys-write', message: 'KEYS is reassigned: the keys the server checked are not the keys the script uses' });
  for (const s of facts.stores)
    if (c.atoms(s.base).has('keys-table'))
      within(s.inFn)({ node: s.node, kind: 'keys-write', message: `\`${text(s.node)} = …\` writes into KEYS: the keys the server checked are not the keys the script uses` });

  for (const rec of [...facts.calls, ...viaPcall]) {
    const callee = c.atoms(rec.callee);
    const report = within(rec.inFn);
    if ([...callee].some(isCallFn)) judgeCall(rec, c, snapshot, text, report);
    if (callee.has('b:loadstring')) report({ node: rec.node, kind: 'loadstring', message: `\`${text(rec.node)}\` runs code the checker cannot see: its keys cannot be checked` });
    if ((callee.has('b:table.insert') || callee.has('b:table.remove') || callee.has('b:rawset')) && rec.args[0] && c.atoms(rec.args[0]).has('keys-table'))
      report({ node: rec.node, kind: 'keys-write', message: `\`${text(rec.node)}\` changes KEYS: the keys the server checked are not the keys the script uses` });
    // The call function handed to code that is not followed: calls through it go unchecked.
    const passedOn = !callee.has('b:pcall') && ![...callee].some(isFn) && ![...callee].some(isCallFn);
    if (passedOn)
      rec.args.forEach((arg, i) => {
        if ([...c.atoms(arg)].some(isCallFn))
          report({ node: rec.argNodes[i] ?? rec.node, kind: 'escaped-call', message: `redis.call is passed to \`${text(rec.node)}\`: calls through it cannot be checked` });
      });
  }
  for (const s of facts.stores)
    if ([...c.atoms(s.value)].some(isCallFn) && ![...c.atoms(s.base)].every((t) => typeof t === 'object' && t.kind === 'table'))
      within(s.inFn)({ node: s.node, kind: 'escaped-call', message: `redis.call is stored in \`${text(s.node)}\`: calls through it cannot be checked` });
  return findings;
}

/**
 * Which code never runs, conservatively: a function defined under a name (`local function f`,
 * `local f = function`, `function f`) runs only if that name is read — called, passed, stored or
 * returned — in code that runs (the top level, or a function that runs), and a function runs only
 * if the function it is defined in does. A function that is a value (an argument, a table field,
 * `function M.f`) is as reachable as the code around it. When the script can reach functions by
 * name at run time (_G, getfenv, loadstring, …), every global function counts as used. Returns,
 * for code inside `fn`, the name of the outermost function that never runs (undefined: it runs).
 */
function unreachableCode(facts: Facts): (fn: FnInfo | undefined) => string | undefined {
  const live = new Set<FnInfo>();
  const runs = (fn: FnInfo | undefined | null): boolean => fn === undefined || fn === null || (live.has(fn) && runs(fn.parent));
  for (let changed = true; changed; ) {
    changed = false;
    for (const fn of facts.fns) {
      if (live.has(fn)) continue;
      const b = fn.boundTo;
      const globalDynamic = b !== undefined && facts.dynamicLookup && facts.globals.get(b.name) === b;
      const used = b === undefined || globalDynamic || (b.uses ?? []).some((u) => u !== fn && runs(u));
      if (used && runs(fn.parent)) {
        live.add(fn);
        changed = true;
      }
    }
  }
  return (fn) => {
    let dead: string | undefined;
    for (let f = fn; f !== undefined; f = f.parent) if (!live.has(f)) dead = f.name;
    return dead;
  };
}

/**
 * The callbacks a `register_function` call registers: `register_function('name', fn)` or the table
 * form `register_function{function_name = 'name', callback = fn, flags = {…}}`.
 */
function callbacks(c: Classifier, rec: CallRec): FnInfo[] {
  const out: FnInfo[] = [];
  const [first, second] = rec.args;
  if (second) for (const a of c.atoms(second)) if (isFn(a)) out.push(a);
  if (first) for (const t of c.atoms(first)) if (typeof t === 'object' && t.kind === 'table') for (const v of t.fields.get('callback') ?? []) for (const a of c.atoms(v)) if (isFn(a)) out.push(a);
  return out;
}

function loc(n: Node): string {
  return `${n.loc?.start.line ?? 0}:${n.loc?.start.column ?? 0}`;
}

function judgeCall(rec: CallRec, c: Classifier, snapshot: KeySpecSnapshot, text: (n: Node) => string, report: (f: RawFinding, id?: string) => void): void {
  const [cmdVal, ...args] = rec.args;
  const cmdNode = rec.argNodes[0] ?? rec.node;
  const names = cmdVal ? [...c.atoms(cmdVal)] : [];
  const literals = names.filter((a): a is string => typeof a === 'string' && a.startsWith('s:')).map((a) => a.slice(2));
  if (!cmdVal || (rec.spread && args.length === 0) || literals.length === 0 || literals.length !== names.length) {
    report({ node: rec.node, kind: 'dynamic-command', message: `the command name \`${cmdVal ? text(cmdNode) : '(none)'}\` is not a string literal, so its keys cannot be checked` });
    return;
  }
  const argv: ArgvView = {
    length: rec.args.length,
    spread: rec.spread,
    literal: (i) => (i === 0 ? undefined : rec.args[i] ? c.literal(rec.args[i]!) : undefined),
  };
  for (const raw of new Set(literals.map((l) => l.toUpperCase()))) {
    const view: ArgvView = { ...argv, literal: (i) => (i === 0 ? raw : argv.literal(i)) };
    if (KEYSPACE_WIDE.has(raw)) {
      report({ node: rec.node, kind: 'keyspace-command', command: raw, message: `${raw} reaches keys that are not declared in KEYS` }, `keyspace@${loc(rec.node)}:${raw}`);
      continue;
    }
    const cmd = lookupCommand(snapshot, view);
    if (cmd.kind === 'unknown') {
      report(
        { node: rec.node, kind: 'unknown-command', command: cmd.name, message: `${cmd.name} is not a command of ${snapshot.server}: its keys cannot be checked` },
        `unknown@${loc(rec.node)}:${cmd.name}`,
      );
      continue;
    }
    if (cmd.kind === 'dynamic-subcommand') {
      report({
        node: rec.node,
        kind: 'dynamic-command',
        command: cmd.name,
        message: `the ${cmd.name} subcommand \`${text(rec.argNodes[1] ?? rec.node)}\` is not a string literal, so its keys cannot be checked`,
      });
      continue;
    }
    if (cmd.spec.flags.includes('noscript')) {
      report({ node: rec.node, kind: 'noscript-command', command: cmd.name, message: `${cmd.name} cannot be called from a script (the server refuses it)` }, `noscript@${loc(rec.node)}:${cmd.name}`);
      continue;
    }
    const pos = keyPositions(cmd.name, cmd.spec, view);
    if (pos.kind === 'unchecked') {
      report({ node: rec.node, kind: 'unchecked-command', command: cmd.name, message: pos.why }, `unchecked@${loc(rec.node)}:${cmd.name}`);
      continue;
    }
    for (const p of pos.positions) {
      const v = rec.args[p];
      const node = rec.argNodes[p];
      if (!v || !node) continue;
      const st = standing(c.atoms(v));
      if (st === 'declared') continue;
      const key = text(node);
      const param = v.t === 'ref' && v.b.paramOf ? ` (a parameter of ${v.b.paramOf.name}: not every call passes a declared key)` : '';
      const note = pos.note ? ` (${pos.note})` : '';
      if (st === 'same-tag')
        report({
          node,
          keyNode: node,
          kind: 'same-tag-key',
          command: cmd.name,
          message: `${cmd.name} key \`${key}\` is not from KEYS: it is built from a declared key or key prefix (slot-safe only while that key carries a hash tag)${param}; declare it in KEYS`,
        });
      else
        report({
          node,
          keyNode: node,
          kind: 'undeclared-key',
          command: cmd.name,
          message: `${cmd.name} key \`${key}\` is not from KEYS: it may live in any slot${param}${note}; declare every key the script touches in KEYS`,
        });
    }
  }
}
