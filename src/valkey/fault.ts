/**
 * Faults are not verdicts. An error is either a result of the system under test (a script's own
 * error reply such as FENCE_BADVALUE, CROSSSLOT — a T3 finding —, WRONGTYPE where a check expects
 * it) or an infrastructure fault: the connection was lost, the server is gone or refuses the
 * harness (NOPERM, NOAUTH), a command timed out, the node is loading, busy or its cluster is down.
 * A fault means "could not run" (exit 2, StageReport `not-run` with the reason), never a
 * counterexample: its seed and path would not reproduce.
 *
 * `classifyFault` is the one place that decides; `InfrastructureFault` carries the kind, the
 * endpoint when known and a one-line reason — never the error's `command` (ioredis attaches the
 * command's arguments to a ReplyError: for EVAL and SCRIPT LOAD that is the whole Lua source).
 */
import { OutcomeUnknownError, ValkeyUnavailableError } from './errors.js';
import { maskSecrets } from '../core/secrets.js';

export type FaultKind =
  /** A connection was closed or reset under a command (CLIENT KILL, a proxy cut, a crash). */
  | 'connection-lost'
  /** A command or connect did not answer in time (a silent or stalled endpoint). */
  | 'timeout'
  /** The server refuses the harness: NOPERM, NOAUTH, WRONGPASS. */
  | 'permission'
  /** Nothing listens any more (ECONNREFUSED), or no cluster node answers. */
  | 'server-gone'
  /** The node is running a script past busy-reply-threshold (BUSY). */
  | 'busy'
  /** The node is loading its dataset (LOADING). */
  | 'loading'
  /** A primary is down or the node is a read-only replica (MASTERDOWN, READONLY). */
  | 'master-down'
  /** The cluster cannot serve the slot (CLUSTERDOWN, also after the client's retries). */
  | 'cluster-down'
  /** No usable Valkey at all (ValkeyUnavailableError). */
  | 'unavailable';

export interface Fault {
  readonly kind: FaultKind;
  /** One line, at most REASON_MAX characters, no script source. */
  readonly reason: string;
  /** host:port of the endpoint, when the error names it. */
  readonly endpoint?: string;
}

export const REASON_MAX = 240;

/** An infrastructure fault: the run could not be done, nothing was found out about the system under test. */
export class InfrastructureFault extends Error {
  override readonly name = 'InfrastructureFault';
  readonly kind: FaultKind;
  readonly reason: string;
  readonly endpoint?: string;
  constructor(fault: Fault) {
    super(describeFault(fault));
    this.kind = fault.kind;
    this.reason = fault.reason;
    if (fault.endpoint !== undefined) this.endpoint = fault.endpoint;
  }
  get fault(): Fault {
    return { kind: this.kind, reason: this.reason, ...(this.endpoint !== undefined ? { endpoint: this.endpoint } : {}) };
  }
}

/** "connection-lost (127.0.0.1:6379): Connection is closed." */
export function describeFault(f: Fault): string {
  return `${f.kind}${f.endpoint ? ` (${f.endpoint})` : ''}: ${f.reason}`;
}

/** First line of a message, passwords masked, trimmed to REASON_MAX characters. */
export function oneLine(text: string, max = REASON_MAX): string {
  const first = maskSecrets(
    text
      .split(/\r?\n/)
      .find((l) => l.trim() !== '')
      ?.trim() ?? '',
  );
  return first.length > max ? `${first.slice(0, max - 1)}…` : first;
}

interface Rule {
  readonly kind: FaultKind;
  readonly test: RegExp;
}

// Server replies that are faults: the reply starts with the error code.
const REPLY_RULES: readonly Rule[] = [
  // A script's own call refused by the ACL ("ERR ACL failure in script: User u has no permissions to
  // run the 'del' command …"): the server refuses the harness's user, as NOPERM does outside a script.
  { kind: 'permission', test: /^(NOPERM|NOAUTH|WRONGPASS)\b|^ERR ACL failure in script\b/ },
  { kind: 'loading', test: /^LOADING\b/ },
  { kind: 'busy', test: /^BUSY\s/ },
  { kind: 'master-down', test: /^(MASTERDOWN|READONLY)\b/ },
  { kind: 'cluster-down', test: /^CLUSTERDOWN\b/ },
];

// Client-side failures (ioredis, Node sockets) that are faults, by message.
const CLIENT_RULES: readonly Rule[] = [
  { kind: 'server-gone', test: /ECONNREFUSED|Failed to refresh slots cache|None of startup nodes is available|ENOTFOUND|EHOSTUNREACH|ENETUNREACH/ },
  // ioredis' bare "Command timed out"; client.ts' CommandTimeoutError ("… got no reply from H:P within N ms").
  // The harness waiting for its own topology to converge (door: "timed out waiting for every node to …").
  {
    kind: 'timeout',
    test: /Command timed out|got no reply from \S+ within \d+ ms|ETIMEDOUT|connect timed out|timed out after \d+ ?ms|timeout of \d+ ?ms|timed out waiting for (every node|the cluster|cluster)/i,
  },
  {
    kind: 'connection-lost',
    test: /Connection is closed|Command aborted due to connection close|ECONNRESET|EPIPE|ECONNABORTED|socket hang up|Reached the max retries per request limit|Stream isn't writeable|enableOfflineQueue options is false|Cluster isn't ready|the connection failed before the reply arrived/,
  },
];

const SYSTEM_CODES: Readonly<Record<string, FaultKind>> = {
  ECONNREFUSED: 'server-gone',
  ENOTFOUND: 'server-gone',
  EHOSTUNREACH: 'server-gone',
  ENETUNREACH: 'server-gone',
  ECONNRESET: 'connection-lost',
  EPIPE: 'connection-lost',
  ECONNABORTED: 'connection-lost',
  ETIMEDOUT: 'timeout',
};

const ENDPOINT_RE = /\b((?:\d{1,3}\.){3}\d{1,3}|localhost|\[[0-9a-fA-F:]+\]):(\d{1,5})\b/;

function endpointOf(err: unknown, message: string): string | undefined {
  const e = err as { address?: unknown; port?: unknown; endpoint?: unknown } | null;
  if (e && typeof e.endpoint === 'string' && e.endpoint !== '') return e.endpoint;
  if (e && typeof e.address === 'string' && typeof e.port === 'number') return `${e.address}:${e.port}`;
  const m = ENDPOINT_RE.exec(message);
  return m ? `${m[1]}:${m[2]}` : undefined;
}

function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === 'string') return err;
  return '';
}

/** The errors an error wraps: `cause`, ioredis' `lastNodeError`, an AggregateError's `errors`, an AssertionError's `actual`. */
function inner(err: unknown): unknown[] {
  if (typeof err !== 'object' || err === null) return [];
  const e = err as { cause?: unknown; lastNodeError?: unknown; errors?: unknown; code?: unknown; actual?: unknown };
  const out: unknown[] = [];
  // node:assert's rejects/throws: the error a check caught is its `actual`.
  if (e.code === 'ERR_ASSERTION' && e.actual instanceof Error) out.push(e.actual);
  if (e.cause !== undefined) out.push(e.cause);
  if (e.lastNodeError !== undefined && e.lastNodeError !== null) out.push(e.lastNodeError);
  if (Array.isArray(e.errors)) out.push(...e.errors);
  return out;
}

function classifyOne(err: unknown): Fault | null {
  if (err instanceof InfrastructureFault) return err.fault;
  const message = messageOf(err);
  const endpoint = endpointOf(err, message);
  const fault = (kind: FaultKind, reason = message): Fault => ({ kind, reason: oneLine(reason || String(err)), ...(endpoint ? { endpoint } : {}) });
  if (err instanceof ValkeyUnavailableError) return fault('unavailable');
  if (err instanceof Error && err.name === 'CommandTimeoutError') return fault('timeout');
  // A server reply: only the codes above are faults; every other reply is a result.
  for (const r of REPLY_RULES) if (r.test.test(message)) return fault(r.kind);
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && SYSTEM_CODES[code]) return fault(SYSTEM_CODES[code]!);
  // "Too many Cluster redirections. Last error: …": a fault when its last error is one.
  const last = /Too many Cluster redirections\. Last error: (.*)$/s.exec(message);
  if (last) {
    const tail = last[1]!.replace(/^\w*(Reply)?Error: /, '');
    for (const r of [...REPLY_RULES, ...CLIENT_RULES]) if (r.test.test(tail)) return fault(r.kind);
    return null;
  }
  if (isServerReply(err)) return null;
  for (const r of CLIENT_RULES) if (r.test.test(message)) return fault(r.kind);
  return null;
}

/** A reply the server sent (ioredis ReplyError, SimpleError in RESP3), judged by its code alone. */
function isServerReply(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  for (let p: object | null = err; p; p = Object.getPrototypeOf(p) as object | null) {
    const n = (p as { constructor?: { name?: string } }).constructor?.name;
    if (n === 'ReplyError' || n === 'SimpleError' || n === 'BlobError') return true;
  }
  return false;
}

/**
 * The fault an error is, or null when it is a genuine result. Follows `cause` (OutcomeUnknownError,
 * LimiterError), `lastNodeError` (ClusterAllFailedError) and AggregateError members. An
 * OutcomeUnknownError whose cause is not recognised still counts as a lost connection: it only ever
 * means the reply did not arrive.
 */
export function classifyFault(err: unknown): Fault | null {
  const seen = new Set<unknown>();
  const walk = (e: unknown, depth: number): Fault | null => {
    if (e === undefined || e === null || seen.has(e) || depth > 6) return null;
    seen.add(e);
    const own = classifyOne(e);
    if (own) return own;
    for (const i of inner(e)) {
      const f = walk(i, depth + 1);
      if (f) return f;
    }
    if (e instanceof OutcomeUnknownError) {
      const endpoint = endpointOf(e, e.message);
      return { kind: 'connection-lost', reason: oneLine(e.message), ...(endpoint ? { endpoint } : {}) };
    }
    return null;
  };
  return walk(err, 0);
}

/** The error as an InfrastructureFault when it is one (an existing one is returned as is), else null. */
export function asInfrastructureFault(err: unknown, context?: { endpoint?: string; during?: string }): InfrastructureFault | null {
  if (err instanceof InfrastructureFault) return err;
  const f = classifyFault(err);
  if (!f) return null;
  const endpoint = f.endpoint ?? context?.endpoint;
  return new InfrastructureFault({ kind: f.kind, reason: context?.during ? oneLine(`${context.during}: ${f.reason}`) : f.reason, ...(endpoint ? { endpoint } : {}) });
}

/**
 * Remembers the first fault of a property. In a fast-check property: `latch.throwIfFaulted()` first
 * (every call after a fault fails at once with the same fault, so shrinking ends in milliseconds
 * instead of against dead servers), and `throw latch.capture(err)` in its catch. After fc.check, a
 * latched fault is the result — `not-run` — whatever counterexample fast-check reports.
 */
export class FaultLatch {
  private first: InfrastructureFault | null = null;

  get fault(): InfrastructureFault | null {
    return this.first;
  }

  /** Records a fault (the first one wins). */
  record(fault: InfrastructureFault): InfrastructureFault {
    this.first ??= fault;
    return this.first;
  }

  /** The error to rethrow: the latched fault when `err` is a fault (or one was latched before), else `err`. */
  capture(err: unknown, context?: { endpoint?: string; during?: string }): unknown {
    const f = asInfrastructureFault(err, context);
    if (f) return this.record(f);
    return this.first ?? err;
  }

  throwIfFaulted(): void {
    if (this.first) throw this.first;
  }
}

/**
 * Health probe before a failure counts as a verdict: PING on each client, bounded by `timeoutMs`.
 * Resolves null when every one answered, else the fault.
 */
export async function probeHealth(pings: readonly { endpoint?: string; ping: () => Promise<unknown> }[], timeoutMs = 3000): Promise<InfrastructureFault | null> {
  const results = await Promise.all(
    pings.map(async (p) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          p.ping(),
          new Promise((_, reject) => {
            timer = setTimeout(
              () => reject(new InfrastructureFault({ kind: 'timeout', reason: `no answer to a health probe within ${timeoutMs} ms`, ...(p.endpoint ? { endpoint: p.endpoint } : {}) })),
              timeoutMs,
            );
          }),
        ]);
        return null;
      } catch (err) {
        return (
          asInfrastructureFault(err, { during: 'health probe', ...(p.endpoint ? { endpoint: p.endpoint } : {}) }) ??
          new InfrastructureFault({ kind: 'connection-lost', reason: oneLine(`health probe failed: ${messageOf(err) || String(err)}`), ...(p.endpoint ? { endpoint: p.endpoint } : {}) })
        );
      } finally {
        if (timer) clearTimeout(timer);
      }
    }),
  );
  return results.find((r) => r !== null) ?? null;
}
