/**
 * `--system NAME` (repeatable, or `all`) as the systems a command runs on, for every command that
 * takes it; `--const` applied to the one system chosen. Errors are UsageErrors naming what exists.
 */
import { UsageError } from '../core/args.js';
import { MODEL_NAMES, SYSTEM_NAMES, SYSTEMS, type AnySystem } from './systems.js';

/** The names chosen (default: `fallback`, else every system with a model), each known. */
export function selectSystemNames(raw: readonly string[] | undefined, opts: { models?: boolean; fallback?: readonly string[] } = {}): string[] {
  const known = opts.models === false ? SYSTEM_NAMES : MODEL_NAMES;
  if (!raw || raw.length === 0) return [...(opts.fallback ?? known)];
  if (raw.includes('all')) return [...known];
  for (const s of raw) if (!known.includes(s)) throw new UsageError(`--system: unknown system '${s}' (one of ${known.join(', ')}, or all)`);
  return [...new Set(raw)];
}

/** The models of the chosen systems, `constants` applied (which needs exactly one system that takes them). */
export async function selectModels(raw: readonly string[] | undefined, constants: Readonly<Record<string, string>> = {}): Promise<AnySystem[]> {
  const names = selectSystemNames(raw);
  const out = await Promise.all(names.map((n) => SYSTEMS[n]!()));
  if (Object.keys(constants).length === 0) return out;
  if (out.length !== 1) throw new UsageError(`--const needs exactly one --system (got ${names.join(', ')})`);
  const sys = out[0]!;
  if (!sys.withConstants) throw new UsageError(`--const: system ${sys.name} takes no constants here`);
  try {
    return [sys.withConstants(constants)];
  } catch (err) {
    if (err instanceof RangeError) throw new UsageError(`--const: ${err.message}`);
    throw err;
  }
}
