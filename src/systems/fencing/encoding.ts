/**
 * The lease encoding every fencing script uses (src/systems/fencing/lua/lib/prelude.lua): the lease key's
 * value is `<owner>:<generation>` with a PX TTL; a counter is a decimal integer string, no TTL.
 */
export interface LeaseValue {
  readonly owner: string;
  readonly gen: number;
}

export const DEFAULT_LEASE_TTL_MS = 30_000;

export function encodeLease(owner: string, gen: number): string {
  if (owner === '' || owner.includes(':')) throw new RangeError(`owner must be non-empty and free of ':': ${JSON.stringify(owner)}`);
  return `${owner}:${gen}`;
}

/** Null for a free lease (missing key); throws on a value that is not a lease. */
export function decodeLease(v: string | null): LeaseValue | null {
  if (v === null) return null;
  const m = /^([^:]+):(\d+)$/.exec(v);
  if (!m) throw new RangeError(`not a lease value: ${JSON.stringify(v)}`);
  return { owner: m[1]!, gen: Number(m[2]) };
}

/** 0 for a missing counter; throws on a value that is not one. */
export function decodeCounter(v: string | null): number {
  if (v === null) return 0;
  if (!/^\d+$/.test(v)) throw new RangeError(`not a generation counter: ${JSON.stringify(v)}`);
  return Number(v);
}
