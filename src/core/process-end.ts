/**
 * The end of this process, for what must not outlive it: the servers it started, the temporary
 * folders it made. Each owner registers a hook; the hooks run synchronously (an exit handler cannot
 * wait) on 'exit', on an uncaught exception nobody handles, and on SIGINT, SIGTERM and SIGHUP.
 *
 * A signal nobody else handles ends the process: the hooks run, what they return (the reaping of
 * the servers they killed) is awaited briefly, the hooks run once more (for whatever the code still
 * running created meanwhile) and, without a wait, a last time, and the signal is raised again with
 * its default meaning, so the process ends by it (130 / 143 / 129 in a shell). From the moment the signal is taken as the end,
 * endingSignal() names it: an error that arrives afterwards is the teardown's doing, not a crash.
 *
 * The handlers are installed with the first hook: a process that owns nothing keeps every signal's
 * default action (it ends at once, even in the middle of a long synchronous computation).
 */
export type EndSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';
export const END_SIGNALS: readonly EndSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export interface EndHook {
  /**
   * Releases what this owner holds, synchronously. Runs at least once when the process ends and may
   * run more than once. May return promises worth a short wait before a signal ends the process.
   */
  release(): readonly Promise<unknown>[] | void;
  /**
   * 'end' (default): only when the process ends. 'any-signal': also on a signal another listener
   * handles, after which the process may live on (a topology killed on Ctrl-C whoever handles it).
   */
  readonly when?: 'end' | 'any-signal';
}

/** How long a signal's end waits, each round, for what the hooks returned. */
const SETTLE_WAIT_MS = 500;

const hooks = new Set<EndHook>();
const endingListeners: ((sig: EndSignal) => void)[] = [];
let installed = false;
let ending: EndSignal | undefined;

/** Registers a hook; returns a function that unregisters it. */
export function onProcessEnd(hook: EndHook): () => void {
  install();
  hooks.add(hook);
  return () => void hooks.delete(hook);
}

/** The signal that is ending this process, once it was taken as the end; undefined before. */
export function endingSignal(): EndSignal | undefined {
  return ending;
}

/** Called (once) when a signal is taken as the end of this process, before any hook runs. */
export function whenEnding(listener: (sig: EndSignal) => void): void {
  // A listener is told only if the signals are handled: a command that owns nothing to release (an
  // in-process server, say) would otherwise die by the default action, its end line never printed.
  install();
  endingListeners.push(listener);
}

/**
 * The signal ending this process, waiting up to `ms` for one to be taken: an error that reached the
 * caller in the same turn of the event loop as a signal (Ctrl-C reaches the servers too, and their
 * closed sockets may be read before the signal) is then still recognised as the signal's doing.
 */
export function endingSignalWithin(ms: number): Promise<EndSignal | undefined> {
  if (ending !== undefined || !installed) return Promise.resolve(ending);
  return new Promise((resolve) => {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(ending);
    };
    // Referenced on purpose: the caller's answer must not be lost to an emptied event loop.
    const timer = setTimeout(finish, ms);
    whenEnding(finish);
  });
}

function runHooks(which: 'all' | 'any-signal'): Promise<unknown>[] {
  const waits: Promise<unknown>[] = [];
  for (const h of [...hooks]) {
    if (which === 'any-signal' && h.when !== 'any-signal') continue;
    try {
      const w = h.release();
      if (w) waits.push(...w);
    } catch {
      // One owner's failure must not keep the others from releasing theirs.
    }
  }
  return waits;
}

const settle = (ps: Promise<unknown>[]) => Promise.race([Promise.all(ps), new Promise((r) => setTimeout(r, SETTLE_WAIT_MS))]);

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', () => void runHooks('all'));
  // Monitor, not handler: observing the crash must not swallow it. When someone handles uncaught
  // exceptions (vitest does), the process lives on and so must what it owns; 'exit' covers the end.
  process.on('uncaughtExceptionMonitor', () => {
    if (process.listenerCount('uncaughtException') === 0) runHooks('all');
  });
  for (const sig of END_SIGNALS) {
    const onSignal = () => {
      // A repeated signal while we settle (verify stops a stage's group by more than one path) must
      // not end the process by its default action before the killed servers are reaped.
      if (ending !== undefined) return;
      // If nobody else handles the signal, keep its default meaning: terminate. signal-exit's exit
      // hooks do not count as handling it: they too wait to be the sole listeners, so with both of us
      // listening nobody would end the process (every command on the default provider,
      // whose container probe loads them, swallowed Ctrl-C). Once we are gone they are the sole
      // listeners of the re-raised signal: they run their hooks and re-raise it in turn.
      if (process.listenerCount(sig) - signalExitListeners() !== 1) {
        runHooks('any-signal');
        return;
      }
      ending = sig;
      for (const l of endingListeners.splice(0)) {
        try {
          l(sig);
        } catch {
          /* a listener's failure must not stop the end */
        }
      }
      const first = runHooks('all');
      void (async () => {
        // Reap the killed servers first (briefly): a parent that dies before reaping leaves them as
        // zombies for init to collect, and they still show in the process table for a second or two.
        await settle(first);
        // Whatever the code still running created meanwhile is released (and awaited) as well.
        await settle(runHooks('all'));
        // And once more, without a wait, for what it created during that wait (a temporary folder
        // made then was left behind: stability census, `mutants --layer impl` stopped while its
        // systems' probes ran, 3 of 800 runs). Nothing runs between this pass and the re-raise.
        runHooks('all');
        process.removeListener(sig, onSignal);
        process.kill(process.pid, sig);
      })();
    };
    process.on(sig, onSignal);
  }
}

/**
 * How many listeners of each signal belong to signal-exit (v3 keeps its count on
 * `process.__signal_exit_emitter__`, v4 on `process[Symbol.for('signal-exit emitter')]`; each loaded
 * copy adds one listener per signal). testcontainers depends on both versions.
 */
function signalExitListeners(): number {
  const p = process as unknown as Record<string | symbol, unknown>;
  const count = (e: unknown): number => {
    const c = typeof e === 'object' && e !== null ? (e as { count?: unknown }).count : undefined;
    return typeof c === 'number' && c > 0 ? c : 0;
  };
  return count(p.__signal_exit_emitter__) + count(p[Symbol.for('signal-exit emitter')]);
}
