/**
 * Many jobs in flight, taken and judged in a fixed order: jobs are dispatched in the order the
 * source gives them (at most `width` at once) and their results are committed strictly in that
 * order, whatever order they finish in. So a tour's verdict, counts and first failure are the same
 * on every run, however the real system schedules its replies. The source may run dry and refill
 * as commits add work (a breadth-first queue that grows); the run ends when it is dry and nothing
 * is in flight, or when a commit says stop (the jobs still in flight are awaited, their results
 * dropped). A job that throws (a fault) ends the run with that error, once nothing is in flight.
 */
export interface JobSource<J> {
  /** The next job, or undefined when there is none now (a later commit may add some). */
  next(): J | undefined;
}

export function runOrdered<J, R>(source: JobSource<J>, width: number, work: (job: J) => Promise<R>, commit: (job: J, result: R) => boolean): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const jobs = new Map<number, J>();
    const results = new Map<number, R>();
    let dispatched = 0;
    let committed = 0;
    let inFlight = 0;
    let stopped = false;
    let fault: { error: unknown } | null = null;
    let settled = false;

    const pump = (): void => {
      if (settled) return;
      try {
        while (!stopped && results.has(committed)) {
          const seq = committed++;
          const job = jobs.get(seq)!;
          const result = results.get(seq)!;
          jobs.delete(seq);
          results.delete(seq);
          if (!commit(job, result)) stopped = true;
        }
        while (!stopped && inFlight < width) {
          const job = source.next();
          if (job === undefined) break;
          const seq = dispatched++;
          jobs.set(seq, job);
          inFlight += 1;
          let running: Promise<R>;
          try {
            running = work(job);
          } catch (err) {
            running = Promise.reject(err);
          }
          running.then(
            (r) => {
              inFlight -= 1;
              results.set(seq, r);
              pump();
            },
            (err: unknown) => {
              inFlight -= 1;
              fault ??= { error: err };
              stopped = true;
              pump();
            },
          );
        }
      } catch (err) {
        // A commit that throws is a fault of the harness: stop, and report it once nothing is in flight.
        fault ??= { error: err };
        stopped = true;
      }
      if (inFlight === 0 && (stopped || committed === dispatched)) {
        settled = true;
        if (fault) reject(fault.error);
        else resolve();
      }
    };
    pump();
  });
}
