/**
 * A shard of a tour: `i/n` runs every attempt of the model states whose key hashes to i − 1
 * modulo n (FNV-1a over the key's UTF-16 code units: stable across runs, machines and Node
 * versions). The n shards partition the states, so their figures and digests add up to the whole.
 */
import { UsageError } from '../../core/args.js';

export interface Shard {
  /** 1-based. */
  readonly index: number;
  readonly count: number;
}

export const WHOLE: Shard = { index: 1, count: 1 };
export const MAX_SHARDS = 64;

export class ShardSpecError extends Error {
  override readonly name = 'ShardSpecError';
}

/** `2/4` → { index: 2, count: 4 }; 1 ≤ i ≤ n ≤ 64, else ShardSpecError. */
export function parseShard(text: string): Shard {
  const m = /^(\d{1,3})\/(\d{1,3})$/.exec(text.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || index < 1 || count < 1 || index > count || count > MAX_SHARDS) {
    throw new ShardSpecError(`a shard is i/n with 1 ≤ i ≤ n ≤ ${MAX_SHARDS}, got '${text}'`);
  }
  return { index, count };
}

/** A command's `--shard` value: absent is the whole run; a malformed one is usage (64), one line. */
export function shardOption(value: string | undefined): Shard {
  if (value === undefined) return WHOLE;
  try {
    return parseShard(value);
  } catch (err) {
    if (err instanceof ShardSpecError) throw new UsageError(`--shard: ${err.message}`);
    throw err;
  }
}

export function shardLabel(s: Shard): string {
  return `${s.index}/${s.count}`;
}

/** FNV-1a, 32 bits. */
export function stableHash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Whether the state of this key belongs to the shard. */
export function inShard(key: string, s: Shard): boolean {
  return s.count === 1 || stableHash(key) % s.count === s.index - 1;
}
