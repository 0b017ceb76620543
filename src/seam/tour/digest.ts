/**
 * The tour's graph digest, built to be merged: the sum mod 2^256 of the SHA-256 of each state's
 * block of edge lines (one line per attempt, in the state's attempt order). Addition is commutative,
 * so a graph cut into parts by state (shards) has digests that add up to the whole graph's, in any
 * order; and two graphs have the same digest exactly when (but for a SHA-256 collision) every
 * state has the same edges: the same attempts, decisions and successors.
 */
import { createHash } from 'node:crypto';

/** One edge: from, attempt, decision, successor (canonical keys and labels). */
export function edgeLine(from: string, attempt: string, decision: string, to: string): string {
  return `${from}|${attempt}|${decision}|${to}`;
}

/** SHA-256 of one state's edge lines, in its attempt order. */
export function blockHash(lines: readonly string[]): Buffer {
  const h = createHash('sha256');
  for (const l of lines) h.update(`${l}\n`);
  return h.digest();
}

const HEX = /^[0-9a-f]{64}$/;

/** A 256-bit sum, as eight big-endian 32-bit words. */
export class DigestSum {
  private readonly words = new Uint32Array(8);

  /** Adds a 32-byte hash (or another sum's bytes). */
  add(hash: Uint8Array): this {
    if (hash.length !== 32) throw new RangeError(`a digest term is 32 bytes, got ${hash.length}`);
    let carry = 0;
    for (let i = 7; i >= 0; i--) {
      const o = 4 * i;
      const term = ((hash[o]! << 24) >>> 0) + (hash[o + 1]! << 16) + (hash[o + 2]! << 8) + hash[o + 3]!;
      const s = this.words[i]! + term + carry;
      this.words[i] = s >>> 0;
      carry = s > 0xffffffff ? 1 : 0;
    }
    return this;
  }

  addSum(other: DigestSum): this {
    return this.add(other.bytes());
  }

  bytes(): Buffer {
    const b = Buffer.alloc(32);
    for (let i = 0; i < 8; i++) b.writeUInt32BE(this.words[i]!, 4 * i);
    return b;
  }

  hex(): string {
    return this.bytes().toString('hex');
  }

  static fromHex(hex: string): DigestSum {
    if (!HEX.test(hex)) throw new RangeError(`a digest is 64 lower-case hex digits, got '${hex.slice(0, 80)}'`);
    return new DigestSum().add(Buffer.from(hex, 'hex'));
  }
}

/** The sum of digests given as hex (merging shards' digests). */
export function addDigests(hexes: readonly string[]): string {
  const sum = new DigestSum();
  for (const h of hexes) sum.addSum(DigestSum.fromHex(h));
  return sum.hex();
}
