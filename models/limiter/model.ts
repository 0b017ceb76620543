/**
 * Reference model of the ordered two-bucket limiter ("Phase 1"): the transition table and
 * token-bucket refill, in the script's units (ms, integer micro-tokens). Pure; read it beside the
 * table in docs/limiter.md.
 */
import type { BucketUnits } from '../../src/systems/limiter/spec.js';

export const TOKEN = 1_000_000;

/** What a bucket key holds. `corrupt` is a hash whose fields are not the limiter's integers. */
export type Stored =
  | { readonly kind: 'absent' }
  | { readonly kind: 'wrongtype' }
  | { readonly kind: 'corrupt' }
  | { readonly kind: 'bucket'; readonly tokens: number; readonly ts: number; readonly expireAt: number };

export const ABSENT: Stored = { kind: 'absent' };

export interface Participant {
  readonly spec: BucketUnits;
  readonly stored: Stored;
}

export type Decision = 0 | 1 | 2;

export type Outcome = { readonly kind: 'decision'; readonly decision: Decision; readonly delayMs: number } | { readonly kind: 'error'; readonly code: 'WRONGTYPE' | 'CORRUPT' };

/** The row of the transition table a call exercised. */
export type Row = 'deny-first' | 'deny-second' | 'allow-both' | 'single-allow' | 'single-deny' | 'error';

export const ROWS: readonly { readonly row: Row; readonly first: string; readonly second: string; readonly result: string; readonly mutation: string }[] = [
  { row: 'deny-first', first: 'deny', second: 'any', result: 'deny first (1)', mutation: "update first's refill state; second untouched" },
  { row: 'deny-second', first: 'allow', second: 'deny', result: 'deny second (2)', mutation: 'consume first; update denied second' },
  { row: 'allow-both', first: 'allow', second: 'allow', result: 'allow (0)', mutation: 'consume both' },
  { row: 'single-allow', first: 'allow', second: '-', result: 'allow (0)', mutation: 'consume it' },
  { row: 'single-deny', first: 'deny', second: '-', result: 'deny first (1)', mutation: 'update its refill state' },
  { row: 'error', first: 'wrong type / corrupt', second: 'any', result: 'error', mutation: 'nothing, anywhere' },
];

export interface Step {
  readonly outcome: Outcome;
  readonly row: Row;
  /** The stored state of each participant after the call, in call order. */
  readonly after: readonly [Stored, Stored?];
}

interface Live {
  tokens: number;
  ts: number;
}

/** Refill to `now`, capped at capacity; a missing bucket starts full; a ts ahead of now is kept. */
export function refill(spec: BucketUnits, stored: Stored, now: number): Live {
  if (stored.kind !== 'bucket') return { tokens: spec.capacityMicro, ts: now };
  const elapsed = Math.max(0, now - stored.ts);
  return { tokens: Math.min(spec.capacityMicro, stored.tokens + elapsed * spec.refillMicroPerMs), ts: Math.max(stored.ts, now) };
}

/** Milliseconds until the bucket holds one token (0 if it does). */
export function delayMs(spec: BucketUnits, tokens: number): number {
  return tokens >= TOKEN ? 0 : Math.ceil((TOKEN - tokens) / spec.refillMicroPerMs);
}

function written(spec: BucketUnits, b: Live, now: number): Stored {
  return { kind: 'bucket', tokens: b.tokens, ts: b.ts, expireAt: now + spec.idleTtlMs };
}

/** One script execution at server time `now`: the decision and every participant's next state. */
export function step(now: number, first: Participant, second?: Participant): Step {
  const parts = second ? [first, second] : [first];
  for (const p of parts) {
    if (p.stored.kind === 'wrongtype' || p.stored.kind === 'corrupt') {
      const code = p.stored.kind === 'wrongtype' ? 'WRONGTYPE' : 'CORRUPT';
      return { outcome: { kind: 'error', code }, row: 'error', after: second ? [first.stored, second.stored] : [first.stored] };
    }
  }
  const b1 = refill(first.spec, first.stored, now);
  if (b1.tokens < TOKEN) {
    return {
      outcome: { kind: 'decision', decision: 1, delayMs: delayMs(first.spec, b1.tokens) },
      row: second ? 'deny-first' : 'single-deny',
      after: second ? [written(first.spec, b1, now), second.stored] : [written(first.spec, b1, now)],
    };
  }
  const consumed1 = written(first.spec, { tokens: b1.tokens - TOKEN, ts: b1.ts }, now);
  if (!second) return { outcome: { kind: 'decision', decision: 0, delayMs: 0 }, row: 'single-allow', after: [consumed1] };
  const b2 = refill(second.spec, second.stored, now);
  if (b2.tokens < TOKEN) {
    return {
      outcome: { kind: 'decision', decision: 2, delayMs: delayMs(second.spec, b2.tokens) },
      row: 'deny-second',
      after: [consumed1, written(second.spec, b2, now)],
    };
  }
  return {
    outcome: { kind: 'decision', decision: 0, delayMs: 0 },
    row: 'allow-both',
    after: [consumed1, written(second.spec, { tokens: b2.tokens - TOKEN, ts: b2.ts }, now)],
  };
}

/**
 * Time passing by `deltaMs` without a call, seen from the bucket: its ts and expiry move back by
 * delta (only elapsed time matters to the script). A bucket whose expiry is reached by `horizon` is
 * gone, as Valkey's idle expiry would have removed it.
 */
export function advance(stored: Stored, deltaMs: number, horizon: number): Stored {
  if (stored.kind !== 'bucket') return stored;
  const expireAt = stored.expireAt - deltaMs;
  return expireAt <= horizon ? ABSENT : { kind: 'bucket', tokens: stored.tokens, ts: stored.ts - deltaMs, expireAt };
}

/** A bucket whose expiry has been reached is gone (Valkey's idle expiry). */
export function expireIfIdle(stored: Stored, now: number): Stored {
  return stored.kind === 'bucket' && stored.expireAt <= now ? ABSENT : stored;
}
