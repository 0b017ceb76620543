import { projectRoot } from '../../src/core/project-root.js';
import { CHECKS, ControlClient, runCheck, type Check, type CheckOutcome } from '../../src/systems/init-limiter/drive/index.js';
import { loadInitLimiterPatch, startInitLimiterServer, type InitLimiterPatch } from '../../src/systems/init-limiter/server/index.js';
import type { BenchSection } from '../section.js';

/**
 * The init limiter's drive checks whose waits for bytes that may never come end on the server's
 * view (check-kit's `drained`), run twice in the same run on fresh reference servers: deciding by
 * the server's view, and running every such wait out to its real-time timeout (what a server without
 * the read-out gets). Unpatched, and with the two patches whose negatives those waits decide (an
 * abandoned basis, a shed stream left open). Each check's verdict must be the same both ways; the
 * wall time is what the impl layer pays per mutant. Run only when named
 * (`npm run bench -- init-limiter-checks`).
 */
const MOVED = ['slot-held-across-send', 'drip-bounded-by-cap', 'steady-reader-completes', 'herd-shares-one-budget'];
const PATCHES = ['unpatched', 'I9', 'I10'] as const;

async function timed(check: Check, patch: InitLimiterPatch | undefined, askServer: boolean): Promise<{ out: CheckOutcome; ms: number }> {
  const s = await startInitLimiterServer({ ...check.server, testSeams: true, ...(patch ? { patch } : {}) });
  const t0 = performance.now();
  try {
    const out = await runCheck(check, s.url, new ControlClient(s.url), { askServer }).catch((err: unknown) => ({ status: 'broken' as const, observed: (err as Error).message }));
    return { out, ms: performance.now() - t0 };
  } finally {
    await s.stop();
  }
}

export const section: BenchSection = {
  name: 'init-limiter-checks',
  title: "init-limiter drive checks: a negative decided by the server's view against the real-time timeout, the same checks in one run",
  async run(print) {
    const checks = MOVED.map((id) => CHECKS.find((c) => c.id === id)!);
    const w = Math.max(...MOVED.map((id) => id.length));
    let sumView = 0;
    let sumWait = 0;
    let differ = 0;
    for (const name of PATCHES) {
      const patch = name === 'unpatched' ? undefined : await loadInitLimiterPatch(`mutants/init-limiter/impl/${name}.ts`, projectRoot);
      print(`${name}:`);
      print(`  ${'check'.padEnd(w)}  ${"server's view".padStart(14)}  ${'real timeout'.padStart(12)}  verdict`);
      for (const c of checks) {
        const view = await timed(c, patch, true);
        const wait = await timed(c, patch, false);
        sumView += view.ms;
        sumWait += wait.ms;
        const same = view.out.status === wait.out.status;
        if (!same) differ += 1;
        print(
          `  ${c.id.padEnd(w)}  ${`${(view.ms / 1000).toFixed(1)} s`.padStart(14)}  ${`${(wait.ms / 1000).toFixed(1)} s`.padStart(12)}  ${same ? view.out.status : `DIFFERS: ${view.out.status} by the view, ${wait.out.status} by the timeout`}`,
        );
      }
    }
    print(
      `total: ${(sumView / 1000).toFixed(1)} s deciding by the server's view, ${(sumWait / 1000).toFixed(1)} s waiting out the timeouts (×${(sumWait / Math.max(1, sumView)).toFixed(2)}); ${differ === 0 ? 'every verdict the same' : `${differ} verdicts differ`}`,
    );
  },
};
