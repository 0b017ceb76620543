/**
 * The server's options, their defaults and their validation: bad input is one InitLimiterOptionsError
 * naming the option, never a half-started server.
 */
import type { DeadlineLimits } from './delivery-writer.js';
import type { InitLimiterPatch } from './parts.js';
import type { Log } from './response.js';
import type { DataSetShape } from './store.js';

export interface LimiterOptions {
  /** Slots for full deliveries; 0 (or the limiter left out) disables the limiter: base behaviour. */
  readonly maxConcurrent: number;
  /** Waiters beyond the slots (default 0: no queue, shed at once). */
  readonly maxQueued?: number;
  /** The absolute cap on one delivery from its start (default 120000, the seed's 2m). */
  readonly sendTimeoutMs?: number;
  /** The throughput floor a healthy client keeps up (default 65536, the seed's 64 KB/s). */
  readonly floorBytesPerSec?: number;
  /** Added to every write's budget (default 2000). */
  readonly slackMs?: number;
  /** The largest piece one write carries (default 1 MiB, as the seed's initwrite). */
  readonly chunkBytes?: number;
}

export interface TestSeamsOptions {
  /** The clock deadlines and heartbeats run on: 'manual' (default; the harness advances it) or 'real'. */
  readonly clock?: 'manual' | 'real';
}

export interface InitLimiterServerOptions {
  /** Loopback only (default 127.0.0.1). */
  readonly host?: '127.0.0.1' | '::1' | 'localhost';
  /** Default 0: a free port. */
  readonly port?: number;
  /** Left out or null: the limiter is disabled. */
  readonly limiter?: LimiterOptions | null;
  /** The initial data set (default 16 flags of 64 bytes). */
  readonly data?: DataSetShape;
  /** A heartbeat comment on live streams every this many ms (default 15000; 0: none). */
  readonly heartbeatMs?: number;
  /** Retry-After of a shed poll, jittered uniformly in [min, max] seconds (default 1–5). */
  readonly retryAfterSeconds?: { readonly min: number; readonly max: number };
  /** Seed of the Retry-After jitter (default 1). */
  readonly seed?: number;
  /** Hold points, the manual clock and the /_control endpoint; never in production (default off). */
  readonly testSeams?: boolean | TestSeamsOptions;
  /** Parts replaced (a mutant); validated: an unknown part is an error. */
  readonly patch?: InitLimiterPatch | null;
  /** Where log lines go (default: nowhere). A deadline cut is 'warn', a client's disconnect 'debug'. */
  readonly log?: Log;
}

export class InitLimiterOptionsError extends Error {}

export interface ResolvedOptions {
  readonly host: string;
  readonly port: number;
  readonly limiter: { readonly maxConcurrent: number; readonly maxQueued: number } | null;
  readonly limits: DeadlineLimits;
  readonly data: DataSetShape;
  readonly heartbeatMs: number;
  readonly retryAfterSeconds: { readonly min: number; readonly max: number };
  readonly seed: number;
  readonly testSeams: { readonly clock: 'manual' | 'real' } | null;
}

export const DEFAULT_LIMITS: DeadlineLimits = { sendTimeoutMs: 120_000, floorBytesPerSec: 65_536, slackMs: 2_000, chunkBytes: 1 << 20 };

function int(name: string, v: unknown, min: number, fallback: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw new InitLimiterOptionsError(`${name} must be an integer ≥ ${min} (got ${JSON.stringify(v)})`);
  return v;
}

export function resolveOptions(o: InitLimiterServerOptions = {}): ResolvedOptions {
  const host = o.host ?? '127.0.0.1';
  if (!['127.0.0.1', '::1', 'localhost'].includes(host)) throw new InitLimiterOptionsError(`host must be a loopback address (got ${JSON.stringify(host)})`);
  const l = o.limiter ?? null;
  const maxConcurrent = l ? int('limiter.maxConcurrent', l.maxConcurrent, 0, 0) : 0;
  const limits: DeadlineLimits = {
    sendTimeoutMs: int('limiter.sendTimeoutMs', l?.sendTimeoutMs, 1, DEFAULT_LIMITS.sendTimeoutMs),
    floorBytesPerSec: int('limiter.floorBytesPerSec', l?.floorBytesPerSec, 1, DEFAULT_LIMITS.floorBytesPerSec),
    slackMs: int('limiter.slackMs', l?.slackMs, 0, DEFAULT_LIMITS.slackMs),
    chunkBytes: int('limiter.chunkBytes', l?.chunkBytes, 1, DEFAULT_LIMITS.chunkBytes),
  };
  const maxQueued = int('limiter.maxQueued', l?.maxQueued, 0, 0);
  const data = { flags: int('data.flags', o.data?.flags, 1, 16), valueBytes: int('data.valueBytes', o.data?.valueBytes, 1, 64) };
  const ra = o.retryAfterSeconds ?? { min: 1, max: 5 };
  const min = int('retryAfterSeconds.min', ra.min, 0, 1);
  const max = int('retryAfterSeconds.max', ra.max, min, 5);
  const seams = o.testSeams === true ? {} : o.testSeams || null;
  if (seams && seams.clock !== undefined && seams.clock !== 'manual' && seams.clock !== 'real')
    throw new InitLimiterOptionsError(`testSeams.clock is 'manual' or 'real' (got ${JSON.stringify(seams.clock)})`);
  return {
    host,
    port: int('port', o.port, 0, 0),
    limiter: maxConcurrent > 0 ? { maxConcurrent, maxQueued } : null,
    limits,
    data,
    heartbeatMs: int('heartbeatMs', o.heartbeatMs, 0, 15_000),
    retryAfterSeconds: { min, max },
    seed: int('seed', o.seed, 0, 1),
    testSeams: seams ? { clock: seams.clock ?? 'manual' } : null,
  };
}
