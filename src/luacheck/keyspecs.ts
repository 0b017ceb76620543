import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../core/project-root.js';

/**
 * The server's own key specifications (COMMAND INFO, Valkey ≥ 7), normalized to a small JSON form
 * that is committed (valkey-command-keyspecs.json) so the check runs offline, and that a live node
 * can regenerate (`fencecheck lua-check --node … --save-snapshot …`).
 */

/** Where the key search starts: a fixed argv index, after a keyword, or not describable. */
export type BeginSearch = { readonly index: number } | { readonly keyword: string; readonly startfrom: number } | { readonly unknown: true };

/** How many keys follow: a range (lastkey relative to the start; < 0 counts from the end), a count argument, or not describable. */
export type FindKeys =
  | { readonly range: { readonly lastkey: number; readonly keystep: number; readonly limit: number } }
  | { readonly keynum: { readonly keynumidx: number; readonly firstkey: number; readonly keystep: number } }
  | { readonly unknown: true };

export interface KeySpec {
  readonly flags: readonly string[];
  readonly begin: BeginSearch;
  readonly find: FindKeys;
}

export interface CommandSpec {
  readonly arity: number;
  readonly flags: readonly string[];
  readonly keySpecs: readonly KeySpec[];
  /** Container commands (XGROUP, OBJECT, …): argv[1] names one, upper-case. */
  readonly subcommands?: Readonly<Record<string, CommandSpec>>;
}

export interface KeySpecSnapshot {
  readonly schema: 'fencecheck.keyspecs/1';
  /** e.g. "valkey 8.0.1": the server the snapshot was read from. */
  readonly server: string;
  readonly commands: Readonly<Record<string, CommandSpec>>;
}

// From the project root, not beside this module: the compiled CLI runs a copy of this module from .build/.
export const SNAPSHOT_PATH = join(projectRoot, 'src/luacheck/valkey-command-keyspecs.json');

let committed: KeySpecSnapshot | undefined;

/** The committed snapshot (read once per process). */
export function committedSnapshot(): KeySpecSnapshot {
  committed ??= JSON.parse(readFileSync(SNAPSHOT_PATH, 'utf8')) as KeySpecSnapshot;
  return committed;
}

/** Stable JSON for the committed file: one command per line keeps diffs readable. */
export function snapshotJson(s: KeySpecSnapshot): string {
  const names = Object.keys(s.commands).sort();
  const body = names.map((n) => `    ${JSON.stringify(n)}: ${JSON.stringify(s.commands[n])}`).join(',\n');
  return `{\n  "schema": ${JSON.stringify(s.schema)},\n  "server": ${JSON.stringify(s.server)},\n  "commands": {\n${body}\n  }\n}\n`;
}

// ---- normalizing a COMMAND INFO reply -------------------------------------------------------

type Reply = unknown;

/** A RESP2 flat map (['k', v, 'k', v]) as an object. */
function pairs(r: Reply): Record<string, Reply> {
  const out: Record<string, Reply> = {};
  if (!Array.isArray(r)) return out;
  for (let i = 0; i + 1 < r.length; i += 2) out[String(r[i])] = r[i + 1];
  return out;
}

const num = (r: Reply): number => (typeof r === 'number' ? r : Number(r));
const strings = (r: Reply): string[] => (Array.isArray(r) ? r.map(String) : []);

function beginSearch(r: Reply): BeginSearch {
  const b = pairs(r);
  const spec = pairs(b.spec);
  if (b.type === 'index') return { index: num(spec.index) };
  if (b.type === 'keyword') return { keyword: String(spec.keyword), startfrom: num(spec.startfrom) };
  return { unknown: true };
}

function findKeys(r: Reply): FindKeys {
  const f = pairs(r);
  const spec = pairs(f.spec);
  if (f.type === 'range') return { range: { lastkey: num(spec.lastkey), keystep: num(spec.keystep), limit: num(spec.limit) } };
  if (f.type === 'keynum') return { keynum: { keynumidx: num(spec.keynumidx), firstkey: num(spec.firstkey), keystep: num(spec.keystep) } };
  return { unknown: true };
}

function keySpec(r: Reply): KeySpec {
  const k = pairs(r);
  return {
    flags: strings(k.flags)
      .map((f) => f.toLowerCase())
      .sort(),
    begin: beginSearch(k.begin_search),
    find: findKeys(k.find_keys),
  };
}

/** One COMMAND INFO entry: [name, arity, flags, first, last, step, acl, tips, key specs, subcommands]. */
function commandSpec(entry: readonly Reply[]): CommandSpec {
  const subs = Array.isArray(entry[9]) ? (entry[9] as Reply[][]) : [];
  const spec: CommandSpec = {
    arity: num(entry[1]),
    flags: strings(entry[2])
      .map((f) => f.toLowerCase())
      .sort(),
    keySpecs: Array.isArray(entry[8]) ? entry[8].map(keySpec) : [],
  };
  if (subs.length === 0) return spec;
  const subcommands: Record<string, CommandSpec> = {};
  for (const s of [...subs].sort((a, b) => String(a[0]).localeCompare(String(b[0])))) {
    subcommands[String(s[0]).split('|')[1]!.toUpperCase()] = commandSpec(s);
  }
  return { ...spec, subcommands };
}

/** A snapshot from the reply of `COMMAND` (or `COMMAND INFO` of every command). */
export function snapshotFromCommandInfo(reply: readonly Reply[], server: string): KeySpecSnapshot {
  const commands: Record<string, CommandSpec> = {};
  const entries = reply.filter((e): e is Reply[] => Array.isArray(e));
  for (const e of entries.sort((a, b) => String(a[0]).localeCompare(String(b[0])))) commands[String(e[0]).toUpperCase()] = commandSpec(e);
  return { schema: 'fencecheck.keyspecs/1', server, commands };
}

/** Anything that can send a raw command (an ioredis client). */
export interface RawCaller {
  call(command: string, ...args: string[]): Promise<unknown>;
}

/** Reads the key specs of every command from a live node. */
export async function snapshotFromNode(client: RawCaller): Promise<KeySpecSnapshot> {
  const info = String(await client.call('INFO', 'server'));
  const version = /^valkey_version:(\S+)/m.exec(info)?.[1] ?? /^redis_version:(\S+)/m.exec(info)?.[1] ?? 'unknown';
  const name = /^server_name:(\S+)/m.test(info) ? /^server_name:(\S+)/m.exec(info)![1]! : 'redis';
  const reply = (await client.call('COMMAND')) as Reply[];
  return snapshotFromCommandInfo(reply, `${name} ${version}`);
}
