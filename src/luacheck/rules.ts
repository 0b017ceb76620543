import type { FindingKind } from './findings.js';

/**
 * The rule of each finding kind, for code-scanning output (SARIF) and suppression comments. The
 * ids are stable: a code-scanning service tracks a finding by its rule id across runs, so an id is
 * never renumbered or reused; a new kind gets the next number.
 */
export interface LuaRule {
  readonly id: string;
  readonly kind: FindingKind;
  /** One sentence: what the rule asks of a script. */
  readonly short: string;
}

export const LUA_RULES: readonly LuaRule[] = [
  { id: 'FCL001', kind: 'undeclared-key', short: 'Every key a script reaches comes from KEYS (a key from anywhere else may live in any slot).' },
  { id: 'FCL002', kind: 'same-tag-key', short: 'A key built from a declared key (same hash tag) is still declared in KEYS.' },
  { id: 'FCL003', kind: 'keys-write', short: 'A script does not write into KEYS: the keys the server checked must be the keys it uses.' },
  { id: 'FCL004', kind: 'dynamic-command', short: 'Command and subcommand names are string literals, so their key positions can be checked.' },
  { id: 'FCL005', kind: 'loadstring', short: 'No loadstring/load/dofile: code the checker cannot see.' },
  { id: 'FCL006', kind: 'escaped-call', short: 'redis.call is not handed to code the checker cannot follow.' },
  { id: 'FCL007', kind: 'unchecked-command', short: 'Commands whose keys the key specs cannot give (SORT with BY/GET/STORE, MIGRATE) are avoided.' },
  { id: 'FCL008', kind: 'keyspace-command', short: 'No KEYS, SCAN, RANDOMKEY, FLUSHALL, FLUSHDB or SWAPDB: they reach undeclared keys.' },
  { id: 'FCL009', kind: 'noscript-command', short: 'No command the server refuses inside a script (EVAL, FCALL, MULTI, SUBSCRIBE…).' },
  { id: 'FCL010', kind: 'unknown-command', short: 'Every command is one the key specs know.' },
  { id: 'FCL011', kind: 'bad-suppression', short: 'A suppression comment names known rules and gives a reason.' },
];

const BY_KIND = new Map(LUA_RULES.map((r) => [r.kind, r]));
const BY_ID = new Map(LUA_RULES.map((r) => [r.id.toLowerCase(), r]));

export const ruleOf = (kind: FindingKind): LuaRule => BY_KIND.get(kind)!;

/** A rule by its id (`FCL001`) or its kind (`undeclared-key`), case-insensitive. */
export const ruleNamed = (name: string): LuaRule | undefined => BY_ID.get(name.toLowerCase()) ?? BY_KIND.get(name.toLowerCase() as FindingKind);
