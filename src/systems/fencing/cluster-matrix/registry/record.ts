/**
 * A mesh-ready record (`mesh:ready:<runtime_id>`): what a runtime publishes with each heartbeat.
 * The read path skips missing, undecodable and unattested records by design ("Mesh
 * Registry Discovery"); attestation here is an HMAC over the fields with the mesh's secret.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const RECORD_PREFIX = 'mesh:ready:';
/** One key, so one slot: the scored-expiry index (outside the SCAN pattern `mesh:ready:*`). */
export const INDEX_KEY = 'mesh:index:ready';

export interface ReadyRecord {
  readonly runtime: string;
  readonly addr: string;
  /** Incremented on every restart of the runtime. */
  readonly boot: number;
}

export const recordKey = (runtime: string): string => `${RECORD_PREFIX}${runtime}`;

function sign(secret: string, r: ReadyRecord): string {
  return createHmac('sha256', secret).update(`${r.runtime}|${r.addr}|${r.boot}`).digest('hex');
}

export function encodeRecord(secret: string, r: ReadyRecord): string {
  return JSON.stringify({ ...r, sig: sign(secret, r) });
}

/** The record when it decodes, names `runtime` and carries a valid attestation; null otherwise. */
export function decodeRecord(secret: string, runtime: string, raw: string | null, attest = true): ReadyRecord | null {
  if (raw === null) return null;
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  if (typeof o.runtime !== 'string' || typeof o.addr !== 'string' || typeof o.boot !== 'number' || typeof o.sig !== 'string') return null;
  const r: ReadyRecord = { runtime: o.runtime, addr: o.addr, boot: o.boot };
  if (!attest) return r;
  if (r.runtime !== runtime) return null;
  const want = Buffer.from(sign(secret, r), 'hex');
  const got = Buffer.from(o.sig, 'hex');
  return got.length === want.length && timingSafeEqual(got, want) ? r : null;
}
