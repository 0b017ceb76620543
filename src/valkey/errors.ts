/**
 * A command was sent and the connection dropped before its reply arrived: it may or may not have
 * executed on the server. It is never re-sent; the caller must find out (read the keyspace) or
 * treat the outcome as unknown.
 */
export class OutcomeUnknownError extends Error {
  override readonly name = 'OutcomeUnknownError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** No usable valkey-server (binary missing, too old, or it could not start): callers report not-run (exit 2). */
export class ValkeyUnavailableError extends Error {
  override readonly name = 'ValkeyUnavailableError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A command the safety rules forbid on a topology the harness does not own (FLUSHALL, CONFIG SET, CLUSTER changes). */
export class UnsafeOperationError extends Error {
  override readonly name = 'UnsafeOperationError';
}

/**
 * A step that needs a topology the harness owns (it flushes, reconfigures, reshards or reads
 * server-wide counters) was asked to run on one it does not own. A "could not run" (exit 2): it is
 * raised before any command is sent.
 */
export class NotOwnedError extends ValkeyUnavailableError {
  readonly code = 'NOT_OWNED';
  constructor(what: string, why: string) {
    super(`needs an owned topology: ${what} (${why})`);
  }
}

/**
 * No reply within FENCECHECK_COMMAND_TIMEOUT_MS. The command may have been written and may have
 * executed: it is never re-sent (evalScript reports it as OutcomeUnknownError). Not a ReplyError.
 */
export class CommandTimeoutError extends Error {
  override readonly name = 'CommandTimeoutError';
  constructor(
    readonly command: string,
    readonly endpoint: string,
    readonly timeoutMs: number,
  ) {
    super(`${command} got no reply from ${endpoint} within ${timeoutMs} ms (FENCECHECK_COMMAND_TIMEOUT_MS); it may have executed and is not re-sent`);
  }
}
