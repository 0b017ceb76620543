import type { CommandSpec, KeySpec, KeySpecSnapshot } from './keyspecs.js';

/**
 * Which argv positions of a command are keys, read from the server's key specs the way Valkey does
 * (src/db.c getKeysUsingKeySpecs): begin_search finds the first key (a fixed index, or the argument
 * after a keyword searched from `startfrom`), find_keys the last (a range, or a count argument).
 * Specs flagged not_key (shard channels) are skipped, as the server skips them.
 *
 * The argv may be partly unknown (a static check of `redis.call(cmd, KEYS[1], ARGV[1], unpack(t))`):
 * only literals match keywords and counts, and a trailing spread stands for zero or more arguments.
 */
export interface ArgvView {
  /** argv length, the command name included; with a spread, the last element stands for zero or more arguments. */
  readonly length: number;
  readonly spread: boolean;
  /** The literal text of argv[i] when it is known. */
  literal(i: number): string | undefined;
}

export type KeyPositions = { readonly kind: 'keys'; readonly positions: readonly number[]; readonly note?: string } | { readonly kind: 'unchecked'; readonly why: string };

export type CommandLookup =
  | { readonly kind: 'command'; readonly name: string; readonly spec: CommandSpec }
  | { readonly kind: 'unknown'; readonly name: string }
  | { readonly kind: 'dynamic-subcommand'; readonly name: string };

/** The command (or the container's subcommand) argv names. argv[0] must be known. */
export function lookupCommand(snapshot: KeySpecSnapshot, argv: ArgvView): CommandLookup {
  const name = (argv.literal(0) ?? '').toUpperCase();
  const spec = snapshot.commands[name];
  if (!spec) return { kind: 'unknown', name };
  if (!spec.subcommands) return { kind: 'command', name, spec };
  const subText = argv.spread && argv.length === 2 ? undefined : argv.literal(1);
  if (argv.length < 2) return { kind: 'command', name, spec }; // arity error at run time: no key touched
  if (subText === undefined) return { kind: 'dynamic-subcommand', name };
  const sub = subText.toUpperCase();
  const subSpec = spec.subcommands[sub];
  return subSpec ? { kind: 'command', name: `${name} ${sub}`, spec: subSpec } : { kind: 'unknown', name: `${name} ${sub}` };
}

/** Key positions of one command spec over argv (indices into argv; the spread's index stands for all its values). */
export function keyPositions(name: string, spec: CommandSpec, argv: ArgvView): KeyPositions {
  const specs = spec.keySpecs.filter((k) => !k.flags.includes('not_key'));
  if (specs.length === 0) {
    return spec.flags.includes('movablekeys') ? { kind: 'unchecked', why: `key positions of ${name} cannot be checked statically` } : { kind: 'keys', positions: [] };
  }
  const out = new Set<number>();
  let note: string | undefined;
  for (const k of specs) {
    const r = positionsOfSpec(k, argv);
    if (r === 'unchecked') return { kind: 'unchecked', why: `key positions of ${name} cannot be checked statically` };
    for (const p of r.positions) out.add(p);
    note ??= r.note;
  }
  return { kind: 'keys', positions: [...out].sort((a, b) => a - b), ...(note !== undefined && { note }) };
}

function positionsOfSpec(k: KeySpec, argv: ArgvView): 'unchecked' | { positions: number[]; note?: string } {
  if ('unknown' in k.begin || 'unknown' in k.find || k.flags.includes('incomplete')) return 'unchecked';
  const spreadAt = argv.spread ? argv.length - 1 : Infinity;
  const argc = argv.length;
  let first = 0;
  if ('index' in k.begin) first = k.begin.index;
  else {
    // As the server: forward from startfrom up to (not including) the last argument, or backward from argc+startfrom down to 2.
    const { keyword, startfrom } = k.begin;
    const kw = keyword.toUpperCase();
    const forward = startfrom > 0;
    const start = forward ? startfrom : argc + startfrom;
    for (let i = start; forward ? i < argc - 1 : i > 1; i += forward ? 1 : -1) {
      if (i >= argc || i < 1) break;
      if (i < spreadAt && argv.literal(i)?.toUpperCase() === kw) {
        first = i + 1;
        break;
      }
    }
    if (first === 0) return { positions: [] }; // keyword absent: this spec finds no key
  }
  if (first >= spreadAt) return { positions: [spreadAt] };
  // Every position from `from` on: the static over-approximation when the end depends on a spread.
  const toEnd = (from: number, note?: string) => {
    const positions: number[] = [];
    for (let i = from; i <= Math.min(argc - 1, spreadAt); i++) positions.push(i);
    return { positions, ...(note !== undefined && { note }) };
  };
  let last: number;
  let step: number;
  if ('range' in k.find) {
    const { lastkey, keystep, limit } = k.find.range;
    step = keystep;
    if (lastkey >= 0) last = first + lastkey;
    else if (argv.spread) return toEnd(first);
    else if (limit === 0) last = argc + lastkey;
    else last = first + (Math.floor((argc - first) / limit) + lastkey);
  } else {
    const { keynumidx, firstkey, keystep } = k.find.keynum;
    step = keystep;
    const at = first + keynumidx;
    const raw = at < spreadAt ? argv.literal(at) : undefined;
    if (raw === undefined) return toEnd(first + firstkey, `the key count (argument ${at}) is not a literal, so every argument after it is taken as a key`);
    if (!/^\d+$/.test(raw.trim())) return { positions: [] }; // the server refuses a bad count: nothing runs
    first += firstkey;
    last = first + Number(raw.trim()) - 1;
  }
  if (!argv.spread && (last >= argc || last < first || first >= argc)) return { positions: [] }; // a syntax error at run time
  const positions: number[] = [];
  for (let i = first; i <= last; i += Math.max(1, step)) {
    if (i >= spreadAt) {
      positions.push(spreadAt);
      break;
    }
    if (i >= argc) break;
    positions.push(i);
  }
  return { positions };
}

/** A concrete argv (the runtime guard, COMMAND GETKEYS cross-checks). */
export function concreteArgv(argv: readonly string[]): ArgvView {
  return { length: argv.length, spread: false, literal: (i) => argv[i] };
}

/** The keys of a concrete command line, or why they cannot be told. */
export function keysOfArgv(snapshot: KeySpecSnapshot, argv: readonly string[]): { keys: string[] } | { why: string } {
  const view = concreteArgv(argv);
  const cmd = lookupCommand(snapshot, view);
  if (cmd.kind !== 'command') return { why: `unknown command ${cmd.name}` };
  const r = keyPositions(cmd.name, cmd.spec, view);
  if (r.kind === 'unchecked') return { why: r.why };
  return { keys: r.positions.map((p) => argv[p]!) };
}
