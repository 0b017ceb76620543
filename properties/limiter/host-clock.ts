/**
 * A faked application-host clock: Date.now() runs `offsetMs` ahead of (or behind) the real clock.
 * The limiter must not care (it uses Valkey TIME); a client that reads the host clock would.
 */
const realNow = Date.now.bind(Date);
let offset = 0;

export function setHostClockOffset(offsetMs: number): void {
  offset = offsetMs;
  Date.now = offset === 0 ? realNow : () => realNow() + offset;
}

export function hostClockOffset(): number {
  return offset;
}

/** Runs fn with the host clock shifted, restoring the real clock afterwards (also on throw). */
export async function withHostClockOffset<T>(offsetMs: number, fn: () => Promise<T>): Promise<T> {
  const before = offset;
  setHostClockOffset(offsetMs);
  try {
    return await fn();
  } finally {
    setHostClockOffset(before);
  }
}
