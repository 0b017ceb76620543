/**
 * Runs `work` on every item, at most `limit` at once, items started in their order; resolves when
 * all have ended (the first rejection rejects, as Promise.all does, once the running ones end).
 */
export async function atMost<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      await work(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, lane));
}
