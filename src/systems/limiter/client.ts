/**
 * The typed client of ordered_limiter.lua: `allowOrdered(first, second?)`, the seed's bounded API
 * (one or two buckets, no variadic work). One EVALSHA (EVAL on NOSCRIPT, via src/valkey/scripts); never
 * re-sent: a call whose reply was lost, or that was cancelled after it was sent, reports
 * `unknown` — it may have consumed a token, and sending it again could consume a second one.
 */
import { join } from 'node:path';
import { projectRoot } from '../../core/project-root.js';
import { evalScript, loadLuaScript, type LuaScript } from '../../valkey/scripts/index.js';
import { OutcomeUnknownError, type ValkeyClient } from '../../valkey/index.js';
import type { BucketSpec } from './spec.js';

export interface Request {
  readonly key: string;
  readonly spec: BucketSpec;
}

/** 0 allowed, 1 first bucket denied, 2 second bucket denied. */
export type Decision = 0 | 1 | 2;

export type LimiterResult =
  | { readonly kind: 'decided'; readonly decision: Decision; readonly delayMs: number; readonly serverNowMs: number }
  /** Sent, but no reply: it may have executed. Never re-sent. */
  | { readonly kind: 'unknown'; readonly reason: 'connection-lost' | 'cancelled'; readonly message: string }
  /** Cancelled before it was sent: it did not execute. */
  | { readonly kind: 'not-sent'; readonly reason: 'cancelled' };

export type LimiterErrorCode = 'WRONGTYPE' | 'CORRUPT' | 'CROSSSLOT' | 'DUPLICATE_KEY' | 'SCRIPT';

/** The script refused the call; nothing was written (the script validates before its first write). */
export class LimiterError extends Error {
  override readonly name = 'LimiterError';
  constructor(
    readonly code: LimiterErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** How the client runs the script; defaults to src/valkey/scripts' evalScript (EVALSHA → EVAL). */
export type ScriptCall = (client: ValkeyClient, script: LuaScript, keys: readonly string[], args: readonly (string | number)[]) => Promise<unknown>;

export interface LimiterOptions {
  readonly script?: LuaScript;
  readonly call?: ScriptCall;
}

// From the project root, not beside this module: the compiled CLI runs a copy of this module from .build/.
export const ORDERED_LIMITER_LUA = join(projectRoot, 'src/systems/limiter/lua/ordered_limiter.lua');

/** Loads the script (with the foundation's static KEYS check); `transform` rewrites the source first. */
export function orderedLimiterScript(transform?: (source: string) => string): LuaScript {
  return loadLuaScript(ORDERED_LIMITER_LUA, { name: 'ordered_limiter', ...(transform ? { transform } : {}) });
}

let defaultScript: LuaScript | undefined;

export class Limiter {
  private readonly script: LuaScript;
  private readonly call: ScriptCall;

  constructor(
    private readonly client: ValkeyClient,
    options: LimiterOptions = {},
  ) {
    this.script = options.script ?? (defaultScript ??= orderedLimiterScript());
    this.call = options.call ?? evalScript;
  }

  /** Evaluates `first` and, only when it allows, `second`, in one script execution. */
  async allowOrdered(first: Request, second?: Request, opts: { signal?: AbortSignal } = {}): Promise<LimiterResult> {
    if (second !== undefined && second.key === first.key) {
      throw new LimiterError('DUPLICATE_KEY', `allowOrdered: both requests use key ${first.key}`);
    }
    const { signal } = opts;
    if (signal?.aborted) return { kind: 'not-sent', reason: 'cancelled' };
    const [k1, a1] = [first.key, first.spec.args];
    const pending = second === undefined ? this.call(this.client, this.script, [k1], a1) : this.call(this.client, this.script, [k1, second.key], [a1[0], a1[1], a1[2], ...second.spec.args]);
    let reply: unknown;
    try {
      reply = signal ? await raceAbort(pending, signal) : await pending;
    } catch (err) {
      if (err === CANCELLED) return { kind: 'unknown', reason: 'cancelled', message: 'cancelled after it was sent; it may still execute' };
      if (err instanceof OutcomeUnknownError) return { kind: 'unknown', reason: 'connection-lost', message: err.message };
      throw toLimiterError(err);
    }
    return parseReply(reply);
  }
}

const CANCELLED = Symbol('cancelled');

/** Settles with the call or with CANCELLED when the signal fires; the call itself is left alone. */
function raceAbort<T>(pending: Promise<T>, signal: AbortSignal): Promise<T> {
  pending.catch(() => {}); // its outcome is no longer awaited once cancelled
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(CANCELLED);
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (v) => (signal.removeEventListener('abort', onAbort), resolve(v)),
      (e: unknown) => (signal.removeEventListener('abort', onAbort), reject(e)),
    );
  });
}

function parseReply(reply: unknown): LimiterResult {
  if (Array.isArray(reply) && reply.length === 3 && reply.every((v) => typeof v === 'number')) {
    const [decision, delayMs, serverNowMs] = reply as [number, number, number];
    if (decision === 0 || decision === 1 || decision === 2) return { kind: 'decided', decision, delayMs, serverNowMs };
  }
  throw new LimiterError('SCRIPT', `ordered_limiter: unexpected reply ${JSON.stringify(reply)}`);
}

function toLimiterError(err: unknown): Error {
  if (!(err instanceof Error)) return new LimiterError('SCRIPT', String(err));
  const m = err.message;
  const code: LimiterErrorCode | null = m.startsWith('WRONGTYPE')
    ? 'WRONGTYPE'
    : m.startsWith('CROSSSLOT')
      ? 'CROSSSLOT'
      : m.includes('limiter: corrupt')
        ? 'CORRUPT'
        : m.includes('limiter: duplicate')
          ? 'DUPLICATE_KEY'
          : m.includes('limiter:')
            ? 'SCRIPT'
            : null;
  return code === null ? err : new LimiterError(code, m, { cause: err });
}
