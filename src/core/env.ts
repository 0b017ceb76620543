import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { EndpointSyntaxError, parseEndpointList, parseEndpointUrl, type EndpointUrl } from './endpoint-url.js';
import { maskSecrets, rememberEndpointSecrets } from './secrets.js';

/**
 * Every FENCECHECK_* environment variable, what it may hold, and its check. The CLI checks the
 * whole environment before a command starts anything (src/cli/main.ts → checkEnvironment): a value
 * out of range or malformed, or an unknown FENCECHECK_* name, is bad input (exit 3), one line naming
 * the variable and what it allows. The readers (envInt, envChoice, …) take their ranges from this
 * table too, so a range is written once. Documented in docs/valkey.md ("Environment").
 *
 * An empty value is the same as an unset one.
 */

export type EnvSpec =
  | { readonly kind: 'int'; readonly min: number; readonly max: number; readonly unit: string }
  | { readonly kind: 'int-list'; readonly min: number; readonly max: number }
  | { readonly kind: 'choice'; readonly values: readonly string[] }
  /** '0' or '1'. */
  | { readonly kind: 'flag' }
  /** One endpoint (src/core/endpoint-url.ts). */
  | { readonly kind: 'endpoint' }
  /** A comma-separated seed list. */
  | { readonly kind: 'endpoints' }
  /** A readable regular file in PEM form. */
  | { readonly kind: 'pem' }
  /** Any text (a path, a name, a list of options). */
  | { readonly kind: 'text' }
  /** Set by fencecheck itself for its own children (or by its tests); any value. */
  | { readonly kind: 'internal' };

export interface EnvVar {
  readonly spec: EnvSpec;
  /** One line for the docs and `what`. */
  readonly what: string;
}

/** Node's timers hold at most 2^31-1 ms; a longer one fires after 1 ms (TimeoutOverflowWarning). */
export const MAX_TIMER_MS = 2_147_483_647;

export const ENV_VARS = {
  FENCECHECK_VALKEY_URL: { spec: { kind: 'endpoint' }, what: 'a standalone Valkey you run: host:port, redis://[user:password@]host:port, rediss://… for TLS' },
  FENCECHECK_VALKEY_CLUSTER: { spec: { kind: 'endpoints' }, what: 'a cluster you run: comma-separated seeds, each like FENCECHECK_VALKEY_URL' },
  FENCECHECK_ALLOW_DESTRUCTIVE: { spec: { kind: 'flag' }, what: '1: send destructive commands to an endpoint the harness does not own, each named on stderr' },
  FENCECHECK_VALKEY_PROVIDER: { spec: { kind: 'choice', values: ['auto', 'native', 'testcontainers', 'external'] }, what: 'where topologies come from (default auto)' },
  FENCECHECK_VALKEY_SERVER: { spec: { kind: 'text' }, what: 'the valkey-server binary (default: valkey-server on PATH)' },
  FENCECHECK_VALKEY_IMAGE: { spec: { kind: 'text' }, what: 'the container image of the testcontainers provider (default valkey/valkey:8.0.1)' },
  FENCECHECK_REGISTRY_DIR: { spec: { kind: 'text' }, what: "the harness's private temporary root (default <tmpdir>/fencecheck-<uid>)" },
  FENCECHECK_CONNECT_TIMEOUT_MS: { spec: { kind: 'int', min: 1, max: MAX_TIMER_MS, unit: 'milliseconds' }, what: 'TCP connect timeout (default 5000)' },
  FENCECHECK_COMMAND_TIMEOUT_MS: { spec: { kind: 'int', min: 1, max: MAX_TIMER_MS, unit: 'milliseconds' }, what: 'no reply to a command within this (default 10000)' },
  FENCECHECK_TLS_CA: { spec: { kind: 'pem' }, what: 'rediss://: the CA certificate(s) the server certificate must chain to (default: the system CAs)' },
  FENCECHECK_TLS_CERT: { spec: { kind: 'pem' }, what: 'rediss://: the client certificate (with FENCECHECK_TLS_KEY)' },
  FENCECHECK_TLS_KEY: { spec: { kind: 'pem' }, what: "rediss://: the client certificate's private key (with FENCECHECK_TLS_CERT)" },
  FENCECHECK_TLS_SERVERNAME: { spec: { kind: 'text' }, what: 'rediss://: the name the server certificate must carry, also sent as SNI (default: the host)' },
  FENCECHECK_LOCALITY_GUARD: { spec: { kind: 'flag' }, what: '1: cluster clients refuse a command, pipeline or script whose keys span slots (the test suite)' },
  FENCECHECK_VERBOSE: { spec: { kind: 'flag' }, what: '1: say why provider auto fell back to native' },
  FENCECHECK_FROM_SOURCE: { spec: { kind: 'flag' }, what: '1: run the TypeScript sources through tsx even when the build in .build/ is fresh (bin/fencecheck.mjs)' },
  FENCECHECK_PROGRESS: { spec: { kind: 'choice', values: ['auto', 'plain'] }, what: 'plain: progress as plain lines even on a terminal' },
  FENCECHECK_PROGRESS_MS: { spec: { kind: 'int', min: 0, max: 86_400_000, unit: 'milliseconds' }, what: 'how often a plain progress line is printed' },
  FENCECHECK_BENCH_GATE_SIZES: { spec: { kind: 'int-list', min: 1, max: 100_000_000 }, what: 'bench gate: the session counts (default 100000,1000000)' },
  FENCECHECK_BENCH_VERIFY_ARGS: { spec: { kind: 'text' }, what: 'bench verify: extra verify options' },
  FENCECHECK_BENCH_CONFORM_BUDGET_MS: { spec: { kind: 'int', min: 1, max: MAX_TIMER_MS, unit: 'milliseconds' }, what: 'bench conform: the time budget' },
  FENCECHECK_BENCH_MODEL_BUDGET_MS: { spec: { kind: 'int', min: 1, max: MAX_TIMER_MS, unit: 'milliseconds' }, what: 'bench model: the time budget' },
  FENCECHECK_BENCH_CLUSTER_MATRIX_DRILLS: { spec: { kind: 'int', min: 1, max: 1000, unit: 'drills' }, what: 'bench cluster-matrix: drills per row' },
  FENCECHECK_BENCH_REPLICATION_MS: { spec: { kind: 'int', min: 1, max: MAX_TIMER_MS, unit: 'milliseconds' }, what: 'bench failover: the write window' },
  FENCECHECK_BENCH_CLUSTER_MATRIX_REPLICA_RUNS: { spec: { kind: 'int', min: 1, max: 1000, unit: 'runs' }, what: 'bench cluster-matrix-replica: runs per variant (default 20)' },
  FENCECHECK_BENCH_CLUSTER_MATRIX_REPLICA_VARIANTS: { spec: { kind: 'text' }, what: 'bench cluster-matrix-replica: comma-separated variants (default guarded,unguarded,no-admission)' },
  FENCECHECK_BENCH_SEED: { spec: { kind: 'int', min: 0, max: 2 ** 31 - 1, unit: 'seed' }, what: 'bench stability, signals: replays the signal plan' },
  FENCECHECK_BENCH_STABILITY_ONLY: { spec: { kind: 'text' }, what: 'bench stability: comma-separated item name prefixes to run' },
  FENCECHECK_BENCH_STABILITY_FILES: { spec: { kind: 'text' }, what: 'bench stability: comma-separated test files to run N times each instead of the items' },
  FENCECHECK_BENCH_ROLLOUT_SEEDS: { spec: { kind: 'int-list', min: 0, max: 2_147_483_647 }, what: 'bench rollout: the rehearsal seeds (default 1)' },
  FENCECHECK_BENCH_ROLLOUT_PODS: { spec: { kind: 'int', min: 1, max: 20, unit: 'pods' }, what: 'bench rollout: pods per ReplicaSet (default 10)' },
  FENCECHECK_BENCH_SIGNALS_ONLY: { spec: { kind: 'text' }, what: 'bench signals: comma-separated command name prefixes to run' },
  FENCECHECK_BENCH_BURNERS: {
    spec: { kind: 'int', min: 0, max: 64, unit: 'burners' },
    what: 'bench signals, stability: how many CPU burners to start (default 2; 0 on a machine others load already)',
  },
  FENCECHECK_BENCH_TIMING_FILES: { spec: { kind: 'text' }, what: 'bench timing: comma-separated test files to measure' },
  FENCECHECK_BENCH_TIERS_FILES: { spec: { kind: 'text' }, what: 'bench tiers: comma-separated parts of the quick-tier file paths to measure' },
  FENCECHECK_BENCH_TIMING_LOG: { spec: { kind: 'text' }, what: 'bench timing: keep the samples in this file (appended across sittings)' },
  FENCECHECK_TIMING_LOG: { spec: { kind: 'text' }, what: "tests: append every timed bound's measured value to this file (JSON lines)" },
  FENCECHECK_BOUNDS_SCALE: { spec: { kind: 'int', min: 1, max: 1000, unit: 'times' }, what: 'tests: multiply every timed bound (bench timing sets 10)' },
  FENCECHECK_TRACE_DIR: { spec: { kind: 'text' }, what: 'where counterexample traces are saved (default reports/traces; verify sets <out>/traces for its stages)' },
  FENCECHECK_OBSERVED_DIR: { spec: { kind: 'text' }, what: 'where sampled runs write their observed traces and tracecheck --observed reads them (default observed/ in the trace folder)' },
  FENCECHECK_OWNED_BY: { spec: { kind: 'internal' }, what: "the owner mark of a harness-owned child process (its owner's PID and start time, and the harness root)" },
  FENCECHECK_DOCKER_PROBE: { spec: { kind: 'internal' }, what: "the container probe's answer, cached for child processes" },
  FENCECHECK_VERIFY_PID: { spec: { kind: 'internal' }, what: 'set by verify for its stages (their watchdog)' },
  FENCECHECK_PARENT_PID: { spec: { kind: 'internal' }, what: 'set by the impl layer for its workers: they stop once it is gone (their watchdog)' },
  FENCECHECK_PID_FILE: { spec: { kind: 'internal' }, what: 'tests: where a fixture writes its server PIDs' },
  FENCECHECK_BAD_INPUT_ROOT: { spec: { kind: 'internal' }, what: 'tests: the checkout the bad-input catalogue runs' },
  FENCECHECK_TESTS: { spec: { kind: 'internal' }, what: 'tests: which tier vitest runs — quick (npm test), deep (npm run test:deep) or all (test/support/tiers.ts)' },
} as const satisfies Readonly<Record<string, EnvVar>>;

export type EnvName = keyof typeof ENV_VARS;

/** A value that breaks its variable's rule: bad input. */
export class EnvError extends RangeError {
  override readonly name = 'EnvError';
}

type Env = Readonly<Record<string, string | undefined>>;

/** The value, or undefined when unset or empty. */
export function envValue(name: EnvName, env: Env = process.env): string | undefined {
  const v = env[name];
  return v === undefined || v === '' ? undefined : v;
}

/** What a variable allows, in words (for messages). */
export function allowed(spec: EnvSpec): string {
  switch (spec.kind) {
    case 'int':
      return `an integer from ${spec.min} to ${spec.max} (${spec.unit})`;
    case 'int-list':
      return `comma-separated integers from ${spec.min} to ${spec.max}`;
    case 'choice':
      return spec.values.join(', ');
    case 'flag':
      return '0 or 1';
    case 'endpoint':
      return 'host:port, or redis://[user:password@]host:port (rediss:// for TLS)';
    case 'endpoints':
      return 'comma-separated host:port or redis://[user:password@]host:port seeds (rediss:// for TLS)';
    case 'pem':
      return 'a readable PEM file';
    case 'text':
    case 'internal':
      return 'any text';
  }
}

const DECIMAL = /^[+]?\d+$/;

function checkInt(name: string, raw: string, spec: { min: number; max: number }, what: string): number {
  const n = DECIMAL.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n < spec.min || n > spec.max) throw new EnvError(`${name}=${maskSecrets(raw)} is not ${what}`);
  return n;
}

function checkPem(name: string, path: string): void {
  let st;
  try {
    st = statSync(path);
  } catch (err) {
    throw new EnvError(`${name}=${path}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); it must be a readable PEM file`);
  }
  if (!st.isFile()) throw new EnvError(`${name}=${path} is not a regular file; it must be a readable PEM file`);
  let head = '';
  try {
    const fd = openSync(path, 'r');
    try {
      const buf = Buffer.alloc(4096);
      head = buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString('latin1');
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    throw new EnvError(`${name}=${path}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); it must be a readable PEM file`);
  }
  if (!head.includes('-----BEGIN ')) throw new EnvError(`${name}=${path} is not PEM (no '-----BEGIN' line in its first 4 KiB)`);
}

/** Checks one variable's value; returns the endpoints it names (for the cross-checks). */
function checkOne(name: EnvName, raw: string): EndpointUrl[] {
  const spec: EnvSpec = ENV_VARS[name].spec;
  switch (spec.kind) {
    case 'int':
      checkInt(name, raw, spec, allowed(spec));
      return [];
    case 'int-list':
      for (const piece of raw.split(',')) checkInt(name, piece === '' ? ' ' : piece, spec, allowed(spec));
      return [];
    case 'choice':
      if (!spec.values.includes(raw)) throw new EnvError(`${name}=${maskSecrets(raw)} is not one of ${allowed(spec)}`);
      return [];
    case 'flag':
      if (raw !== '0' && raw !== '1') throw new EnvError(`${name}=${maskSecrets(raw)} is not 0 or 1`);
      return [];
    case 'endpoint':
    case 'endpoints': {
      try {
        const list = spec.kind === 'endpoint' ? [parseEndpointUrl(raw)] : parseEndpointList(raw);
        for (const e of list) rememberEndpointSecrets(e);
        if (list.length === 0) throw new EnvError(`${name} names no endpoint (${allowed(spec)})`);
        return list;
      } catch (err) {
        if (err instanceof EndpointSyntaxError) throw new EnvError(`${name}: ${err.message}`);
        throw err;
      }
    }
    case 'pem':
      checkPem(name, raw);
      return [];
    case 'text':
    case 'internal':
      return [];
  }
}

/** The closest known name (for a misspelt variable), when it is close. */
function closest(name: string): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of Object.keys(ENV_VARS)) {
    const d = editDistance(name, k);
    if (d < bestD) [best, bestD] = [k, d];
  }
  return bestD <= 3 ? best : undefined;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}

const TLS_VARS = ['FENCECHECK_TLS_CA', 'FENCECHECK_TLS_CERT', 'FENCECHECK_TLS_KEY', 'FENCECHECK_TLS_SERVERNAME'] as const;

/**
 * Checks every FENCECHECK_* variable of `env`; returns the problems, each one line (empty: all
 * good). Also remembers every password the endpoint variables carry, so that no output shows it
 * (src/core/secrets.ts).
 */
export function environmentProblems(env: Env = process.env): string[] {
  const problems: string[] = [];
  const endpoints: Partial<Record<EnvName, EndpointUrl[]>> = {};
  for (const name of Object.keys(env)
    .filter((k) => k.startsWith('FENCECHECK_'))
    .sort()) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    if (!(name in ENV_VARS)) {
      const near = closest(name);
      problems.push(`${name} is not a fencecheck variable${near ? ` (did you mean ${near}?)` : ''}; the variables are listed in docs/valkey.md ("Environment")`);
      continue;
    }
    try {
      endpoints[name as EnvName] = checkOne(name as EnvName, raw);
    } catch (err) {
      if (err instanceof EnvError) problems.push(err.message);
      else throw err;
    }
  }
  const cert = envValue('FENCECHECK_TLS_CERT', env);
  const key = envValue('FENCECHECK_TLS_KEY', env);
  if ((cert === undefined) !== (key === undefined))
    problems.push(
      `${cert === undefined ? 'FENCECHECK_TLS_KEY' : 'FENCECHECK_TLS_CERT'} is set without ${cert === undefined ? 'FENCECHECK_TLS_CERT' : 'FENCECHECK_TLS_KEY'}: a client certificate needs both`,
    );
  const tlsSet = TLS_VARS.filter((v) => envValue(v, env) !== undefined);
  for (const name of ['FENCECHECK_VALKEY_URL', 'FENCECHECK_VALKEY_CLUSTER'] as const) {
    const list = endpoints[name];
    if (!list || list.length === 0) continue;
    const tls = list.filter((e) => e.tls).length;
    if (tls > 0 && tls < list.length) problems.push(`${name} mixes rediss:// and plain seeds: a cluster is reached over TLS or not at all`);
    else if (tls === 0 && tlsSet.length > 0) problems.push(`${tlsSet[0]} is set but ${name} is not a rediss:// (TLS) endpoint: the connection would not use TLS (write rediss://…)`);
  }
  return problems;
}

/** Throws EnvError with every problem in one line; nothing when the environment is good. */
export function checkEnvironment(env: Env = process.env): void {
  const problems = environmentProblems(env);
  if (problems.length > 0) throw new EnvError(problems.join('; '));
}

/** An integer variable within its range, or `fallback` when unset; EnvError when malformed. */
export function envInt(name: EnvName, fallback: number, env: Env = process.env): number {
  const raw = envValue(name, env);
  const spec: EnvSpec = ENV_VARS[name].spec;
  if (raw === undefined) return fallback;
  if (spec.kind !== 'int') throw new TypeError(`${name} is not an integer variable`);
  return checkInt(name, raw, spec, allowed(spec));
}

/** An integer-list variable, or `fallback` when unset. */
export function envIntList(name: EnvName, fallback: readonly number[], env: Env = process.env): number[] {
  const raw = envValue(name, env);
  const spec: EnvSpec = ENV_VARS[name].spec;
  if (raw === undefined) return [...fallback];
  if (spec.kind !== 'int-list') throw new TypeError(`${name} is not an integer-list variable`);
  return raw.split(',').map((p) => checkInt(name, p === '' ? ' ' : p, spec, allowed(spec)));
}

/** A choice variable, or `fallback` when unset. */
export function envChoice<T extends string>(name: EnvName, fallback: T, env: Env = process.env): T {
  const raw = envValue(name, env);
  const spec: EnvSpec = ENV_VARS[name].spec;
  if (raw === undefined) return fallback;
  if (spec.kind !== 'choice') throw new TypeError(`${name} is not a choice variable`);
  if (!spec.values.includes(raw)) throw new EnvError(`${name}=${maskSecrets(raw)} is not one of ${allowed(spec)}`);
  return raw as T;
}

/** Whether a flag variable is 1. */
export function envFlag(name: EnvName, env: Env = process.env): boolean {
  return envValue(name, env) === '1';
}
