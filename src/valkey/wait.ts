export function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export const TIMED_OUT = Symbol('timed out');

/**
 * `p`, or TIMED_OUT after `ms`. The timer is cleared as soon as `p` settles: a `delay` that lost a
 * race would keep the process alive until it fired (every stop and close would end seconds late).
 */
export async function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<typeof TIMED_OUT>((r) => (timer = setTimeout(() => r(TIMED_OUT), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Polls `probe` until it returns true; throws with `what` and the last probe error after `timeoutMs`.
 */
export async function waitUntil(what: string, probe: () => Promise<boolean>, timeoutMs: number, everyMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastErr: unknown;
  for (;;) {
    try {
      if (await probe()) return;
    } catch (err) {
      lastErr = err;
    }
    if (Date.now() > deadline) {
      const why = lastErr instanceof Error ? ` (last error: ${lastErr.message})` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${why}`);
    }
    await delay(everyMs);
  }
}
