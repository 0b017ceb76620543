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
