/**
 * How many bytes a stalled client's connection absorbs before the server's write blocks. Node has no
 * SO_RCVBUF/SO_SNDBUF for TCP sockets, so instead of shrinking the buffers a stall test sends more
 * than they hold: the sender's buffer autotunes up to tcp_wmem's maximum; a receiver that stopped
 * reading early keeps about tcp_rmem's default (autotuning grows it only as the application reads);
 * plus the user-space buffers on both sides. Measured here (Linux, loopback): 3.9 MB taken before
 * the write blocked, against this bound's 4.6 MB.
 */
import { readFileSync } from 'node:fs';

function triple(path: string): [number, number, number] | null {
  try {
    const v = readFileSync(path, 'utf8').trim().split(/\s+/).map(Number);
    return v.length === 3 && v.every((x) => Number.isFinite(x) && x > 0) ? (v as [number, number, number]) : null;
  } catch {
    return null;
  }
}

/** An upper bound on what the kernel buffers of one loopback connection hold for a client that stopped reading. */
export function stallAbsorptionBound(): number {
  const wmem = triple('/proc/sys/net/ipv4/tcp_wmem');
  const rmem = triple('/proc/sys/net/ipv4/tcp_rmem');
  // Off Linux (no /proc): a generous fixed bound.
  if (!wmem || !rmem) return 16 << 20;
  return wmem[2] + 2 * rmem[1] + (256 << 10);
}

/** A payload size that surely blocks the server's write to a stalled client: the bound plus `extra`. */
export function stallPayloadBytes(extra = 1 << 20): number {
  return stallAbsorptionBound() + extra;
}
