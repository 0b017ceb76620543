/** The ordered pool: dispatched in order, judged in order whatever order jobs finish in, stopped and failed cleanly. */
import { describe, expect, it } from 'vitest';
import { runOrdered } from '../../../src/seam/tour/ordered.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const from = <T>(items: readonly T[]) => {
  let i = 0;
  return { next: () => (i < items.length ? items[i++] : undefined) };
};

describe('runOrdered', () => {
  it('commits in the source order although later jobs finish first, with at most `width` in flight', async () => {
    const committed: number[] = [];
    let inFlight = 0;
    let most = 0;
    await runOrdered(
      from([5, 1, 4, 0, 3, 2]),
      3,
      async (ms) => {
        most = Math.max(most, ++inFlight);
        await sleep(ms * 3);
        inFlight -= 1;
        return ms;
      },
      (job, r) => {
        committed.push(r);
        expect(r).toBe(job);
        return true;
      },
    );
    expect(committed).toEqual([5, 1, 4, 0, 3, 2]);
    expect(most).toBe(3);
  });

  it('a source that refills from its commits (a breadth-first queue) runs until it is dry', async () => {
    const queue = [1];
    let i = 0;
    const seen: number[] = [];
    await runOrdered(
      { next: () => (i < queue.length ? queue[i++] : undefined) },
      4,
      async (n) => n,
      (n) => {
        seen.push(n);
        if (n < 8) queue.push(2 * n, 2 * n + 1);
        return true;
      },
    );
    expect(seen).toEqual(Array.from({ length: 15 }, (_, k) => k + 1));
  });

  it('a commit that says stop ends the run: nothing more is dispatched, in-flight jobs are awaited and dropped', async () => {
    const started: number[] = [];
    let settled = 0;
    const committed: number[] = [];
    await runOrdered(
      from([0, 1, 2, 3, 4, 5, 6, 7]),
      3,
      async (n) => {
        started.push(n);
        await sleep(n === 2 ? 1 : 10);
        settled += 1;
        return n;
      },
      (n) => {
        committed.push(n);
        return n < 2;
      },
    );
    expect(committed).toEqual([0, 1, 2]);
    expect(settled).toBe(started.length); // nothing left running
    expect(started.length).toBeLessThan(8);
  });

  it('a job that throws rejects the run once nothing is in flight', async () => {
    let running = 0;
    await expect(
      runOrdered(
        from([1, 2, 3, 4]),
        4,
        async (n) => {
          running += 1;
          await sleep(n === 2 ? 1 : 15);
          running -= 1;
          if (n === 2) throw new Error('lost the server');
          return n;
        },
        () => true,
      ),
    ).rejects.toThrow('lost the server');
    expect(running).toBe(0);
  });
});
