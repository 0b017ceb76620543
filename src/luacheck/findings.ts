/**
 * What the checker reports. Severities are slot-aware: `warning` is a key that is not declared but
 * is built from a declared key (it keeps that key's hash tag, so it is slot-safe on a cluster when
 * the declared key carries one) — still a breach of the locality rule; everything else is `error`.
 * `info` is a finding in code the script never runs (a helper an include brought in that the script
 * does not use): shown, never failing.
 */
export type Severity = 'error' | 'warning' | 'info';

export type FindingKind =
  /** A key argument that may be any string: any slot. */
  | 'undeclared-key'
  /** A key argument built from a declared key: same hash tag, not declared. */
  | 'same-tag-key'
  /** `KEYS[i] = …`, `table.insert(KEYS, …)`, `KEYS = …`: the declared list is not what the server checked. */
  | 'keys-write'
  /** The command (or subcommand) name is not a literal. */
  | 'dynamic-command'
  /** loadstring/load/dofile: code the checker cannot see. */
  | 'loadstring'
  /** redis.call stored or passed where calls through it cannot be followed. */
  | 'escaped-call'
  /** Key positions the key specs cannot give (SORT, MIGRATE, movable keys without specs). */
  | 'unchecked-command'
  /** KEYS, SCAN, RANDOMKEY, FLUSHALL, FLUSHDB, SWAPDB: reach keys that are not declared. */
  | 'keyspace-command'
  /** EVAL, FCALL, MULTI…: the server refuses them inside a script. */
  | 'noscript-command'
  /** Not a command of the key-spec snapshot. */
  | 'unknown-command'
  /** A `lua-check-allow` comment without a known rule or without a reason: it suppresses nothing. */
  | 'bad-suppression';

export interface LuaFinding {
  /** The file the line belongs to (an included file's own path when includes are expanded). */
  readonly file: string;
  readonly line: number;
  /** 1-based. */
  readonly column: number;
  readonly kind: FindingKind;
  readonly severity: Severity;
  /** The command as the key specs name it (`XGROUP CREATE`), when known. */
  readonly command?: string;
  /** The key expression as written. */
  readonly key?: string;
  readonly message: string;
  /** In code the script never runs: the function that is never used (then severity is `info`). */
  readonly unreachable?: string;
  /** The reason of the `lua-check-allow` comment that suppresses it: reported, never failing or counted. */
  readonly suppressed?: string;
  /** In an included file: the include directives that brought the line in, the checked script's first. */
  readonly via?: readonly IncludeStep[];
}

/** One include directive: the file it is in and its line. */
export interface IncludeStep {
  readonly file: string;
  readonly line: number;
}

export const severityOf = (kind: FindingKind, unreachable = false): Severity => (unreachable ? 'info' : kind === 'same-tag-key' ? 'warning' : 'error');

/** `--fail-on error`: only errors fail; `--fail-on warning`: warnings fail too (the default: both breach the rule). Never `info`. */
export type FailOn = Exclude<Severity, 'info'>;

export function fails(f: Pick<LuaFinding, 'severity' | 'suppressed'>, failOn: FailOn): boolean {
  if (f.suppressed !== undefined) return false;
  return f.severity === 'error' || (failOn === 'warning' && f.severity === 'warning');
}
