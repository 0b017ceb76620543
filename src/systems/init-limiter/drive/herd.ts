/** N clients at once: each runs `client(i)`; the outcomes in order (a failure is an outcome, not a throw). */
export type HerdOutcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

export async function herd<T>(n: number, client: (i: number) => Promise<T>): Promise<HerdOutcome<T>[]> {
  const all = await Promise.allSettled(Array.from({ length: n }, (_, i) => client(i)));
  return all.map((r) => (r.status === 'fulfilled' ? { ok: true as const, value: r.value } : { ok: false as const, error: (r.reason as Error)?.message ?? String(r.reason) }));
}
