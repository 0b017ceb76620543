/**
 * Bucket specs, encoded ONCE into the script's argument strings (the seed's pre-encoded `Spec`):
 * the hot path only assembles keys.
 *
 * Units (docs/limiter.md): time in ms of Valkey TIME; tokens as integer micro-tokens
 * (1 token = 1,000,000 µtok); refill in µtok per ms (= milli-tokens per second). With these units a
 * refill is `elapsed_ms * rate`, an exact integer: no float drift and no lost remainders.
 */
export const MICRO_PER_TOKEN = 1_000_000;
/** Keeps every stored and intermediate value far below 2^53 (exact in Lua doubles and JS numbers). */
export const MAX_CAPACITY_TOKENS = 1_000_000_000;
export const MAX_REFILL_PER_SECOND = 1_000_000;
export const MAX_IDLE_TTL_MS = 366 * 24 * 3600 * 1000;

export interface BucketSpecInput {
  /** Whole tokens the bucket holds when full (≥ 1). */
  readonly capacity: number;
  /** Tokens added per second, resolution 0.001 (so 20 per 30 s is 0.666, slightly under). */
  readonly refillPerSecond: number;
  /** An untouched bucket's hash expires this long after its last write. */
  readonly idleTtlMs: number;
}

/** Script units, exactly what the Lua script receives. */
export interface BucketUnits {
  readonly capacityMicro: number;
  readonly refillMicroPerMs: number;
  readonly idleTtlMs: number;
}

export interface BucketSpec extends BucketUnits {
  readonly input: BucketSpecInput;
  /** ARGV for this bucket: [capacity µtok, refill µtok/ms, ttl ms], formatted once. */
  readonly args: readonly [string, string, string];
}

export class BucketSpecError extends Error {
  override readonly name = 'BucketSpecError';
}

/** Validates and pre-encodes a bucket spec; throws BucketSpecError naming the bad field. */
export function bucketSpec(input: BucketSpecInput): BucketSpec {
  const { capacity, refillPerSecond, idleTtlMs } = input;
  if (!Number.isInteger(capacity) || capacity < 1 || capacity > MAX_CAPACITY_TOKENS) {
    throw new BucketSpecError(`capacity must be an integer in 1..${MAX_CAPACITY_TOKENS}, got ${capacity}`);
  }
  const milli = Math.round(refillPerSecond * 1000);
  if (!Number.isFinite(refillPerSecond) || Math.abs(refillPerSecond * 1000 - milli) > 1e-6 || milli < 1 || refillPerSecond > MAX_REFILL_PER_SECOND) {
    throw new BucketSpecError(`refillPerSecond must be a multiple of 0.001 in 0.001..${MAX_REFILL_PER_SECOND}, got ${refillPerSecond}`);
  }
  if (!Number.isInteger(idleTtlMs) || idleTtlMs < 1 || idleTtlMs > MAX_IDLE_TTL_MS) {
    throw new BucketSpecError(`idleTtlMs must be an integer in 1..${MAX_IDLE_TTL_MS}, got ${idleTtlMs}`);
  }
  return fromUnits({ capacityMicro: capacity * MICRO_PER_TOKEN, refillMicroPerMs: milli, idleTtlMs }, input);
}

function fromUnits(units: BucketUnits, input: BucketSpecInput): BucketSpec {
  return Object.freeze({
    ...units,
    input: Object.freeze({ ...input }),
    args: Object.freeze([String(units.capacityMicro), String(units.refillMicroPerMs), String(units.idleTtlMs)]) as readonly [string, string, string],
  });
}
