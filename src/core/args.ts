import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Thrown for wrong command-line usage; main() turns it into exit code 64. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * node's parseArgs refuses `--seed -5` as "ambiguous" (the value looks like an option). A value
 * that is a negative number is never an option here, so `--opt -5` is rewritten to `--opt=-5`
 * for every string option (both spellings are accepted; `--opt=-5` is the documented one).
 */
function joinNegativeValues(argv: readonly string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const next = argv[i + 1];
    const long = a.startsWith('--') && !a.includes('=') ? a.slice(2) : undefined;
    const short = !long && /^-[A-Za-z]$/.test(a) ? Object.entries(options).find(([, o]) => o.short === a.slice(1))?.[0] : undefined;
    const name = long ?? short;
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`--${name}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/** The one argument parser every command uses: strict, no positionals unless asked for. */
export function parseCommandArgs<O extends Options>(argv: readonly string[], options: O, allowPositionals = false) {
  try {
    return parseArgs({ args: joinNegativeValues(argv, options), options, strict: true, allowPositionals });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

export interface IntRange {
  readonly min?: number;
  readonly max?: number;
}

/** The fast-check seed range (a 32-bit signed integer). */
export const SEED_RANGE: IntRange = { min: -2147483648, max: 2147483647 };

/**
 * The one numeric-option parser: a decimal integer (an optional leading `-`, digits only — no
 * exponent, hex, fraction, sign `+`, blanks or empty string) within [min, max]. Anything else is a
 * UsageError naming the option, the range and the value given. Absent: `dflt` (or undefined).
 */
export function parseIntValue(flag: string, raw: string, range: IntRange = {}): number {
  const min = range.min ?? Number.MIN_SAFE_INTEGER;
  const max = range.max ?? Number.MAX_SAFE_INTEGER;
  const want = range.max !== undefined ? `an integer from ${min} to ${max}` : range.min !== undefined ? `an integer >= ${min}` : 'an integer';
  const shown = JSON.stringify(raw);
  if (!/^-?\d+$/.test(raw)) throw new UsageError(`${flag} takes ${want} (decimal digits only), got ${shown}`);
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`${flag} takes ${want}, got ${shown}`);
  return n;
}

export function intOption(values: Readonly<Record<string, unknown>>, name: string, range: IntRange & { default: number }): number;
export function intOption(values: Readonly<Record<string, unknown>>, name: string, range?: IntRange & { default?: undefined }): number | undefined;
export function intOption(values: Readonly<Record<string, unknown>>, name: string, range: IntRange & { default?: number } = {}): number | undefined {
  const raw = values[name];
  if (raw === undefined) return range.default;
  if (typeof raw !== 'string') throw new UsageError(`--${name} takes a value`);
  return parseIntValue(`--${name}`, raw, range);
}

/** `--const NAME=VALUE` (repeatable) as a record; a malformed one or a repeated name is a UsageError. */
export function constantsOption(raw: readonly string[] | undefined): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const r of raw ?? []) {
    const m = /^([A-Za-z_]\w*)=(.+)$/s.exec(r);
    if (!m) throw new UsageError(`--const takes NAME=VALUE (a TLA+ constant, e.g. MaxGen=6), got ${JSON.stringify(r)}`);
    if (out[m[1]!] !== undefined) throw new UsageError(`--const ${m[1]} given twice`);
    out[m[1]!] = m[2]!;
  }
  return out;
}
