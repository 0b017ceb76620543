import { podsOf, DEFAULT_BOUNDS, type FencingBounds } from '../src/fencing/state.js';
import { boundsLabel } from '../src/model/bounds.js';
import { explore, ExplorationLimitError } from '../src/model/explore.js';
import { readBaseStateDump } from '../src/tlc/evidence.js';
import { locateTlc } from '../src/tlc/locate.js';
import { checkBase } from '../src/tlc/check.js';
import type { BenchSection } from './section.js';

/**
 * Exhaustive exploration of the XState twin: the base config (median of RUNS) beside TLC's time on
 * the same config — from the committed evidence, and live when a tla2tools.jar is present — then
 * larger bounds (Pods 2..4 × MaxGen 3..6) within a time budget. TLC runs with one worker; both
 * figures depend on the machine's load, their ratio less so.
 */
const RUNS = 3;
const BUDGET_MS = Number(process.env.FENCECHECK_BENCH_MODEL_BUDGET_MS ?? 120_000);
const LIMIT = 5_000_000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const ms = (n: number) => `${Math.round(n).toLocaleString('en-US')} ms`;

export const section: BenchSection = {
  name: 'model',
  title: 'model: exhaustive exploration of the XState twin (xstate/graph) beside TLC',
  async run(print) {
    const times: number[] = [];
    let base = explore({ bounds: DEFAULT_BOUNDS });
    for (let i = 0; i < RUNS; i++) {
      base = explore({ bounds: DEFAULT_BOUNDS });
      times.push(base.durationMs);
    }
    const ours = median(times);
    print(`base config (${boundsLabel(DEFAULT_BOUNDS)}):`);
    print(`  XState exploration  ${ms(ours).padStart(10)}  median of ${RUNS}, ${base.distinct} distinct / ${base.generated} generated`);
    try {
      const dump = readBaseStateDump();
      print(`  TLC (evidence)      ${ms(dump.durationMs).padStart(10)}  ${dump.distinct} distinct / ${dump.generated} generated, ${dump.tlcVersion}; ratio TLC/XState ${(dump.durationMs / ours).toFixed(2)}`);
    } catch (err) {
      print(`  TLC (evidence)      no evidence yet: ${(err as Error).message}`);
    }
    const located = locateTlc();
    if (!located.ok) print(`  TLC (live)          not run: ${located.reason}`);
    else {
      const live = await checkBase({ tools: located.tools, timeoutMs: 300_000, workers: 1 });
      const e = live.evidence;
      print(`  TLC (live)          ${ms(e.durationMs ?? e.wallMs).padStart(10)}  TLC's own time (${ms(e.wallMs)} wall incl. JVM start), ${e.distinct ?? '?'} distinct / ${e.generated ?? '?'} generated`);
    }

    print(`larger bounds (budget ${ms(BUDGET_MS)}; a config is skipped once the budget is spent):`);
    print(`  ${'bounds'.padEnd(18)} ${'distinct'.padStart(9)} ${'generated'.padStart(10)} ${'time'.padStart(10)} ${'states/s'.padStart(9)}`);
    const started = performance.now();
    for (let pods = 2; pods <= 4; pods++) {
      for (let maxGen = 3; maxGen <= 6; maxGen++) {
        const bounds: FencingBounds = { pods: podsOf(pods), maxGen };
        if (performance.now() - started > BUDGET_MS) {
          print(`  ${boundsLabel(bounds).padEnd(18)} skipped (budget spent)`);
          continue;
        }
        try {
          const r = explore({ bounds, limit: LIMIT });
          const broken = r.verdicts.filter((v) => !v.holds).map((v) => v.name);
          print(
            `  ${boundsLabel(bounds).padEnd(18)} ${String(r.distinct).padStart(9)} ${String(r.generated).padStart(10)} ${ms(r.durationMs).padStart(10)} ${String(Math.round(r.distinct / (r.durationMs / 1000))).padStart(9)}${broken.length ? `  BROKEN: ${broken.join(',')}` : ''}`,
          );
        } catch (err) {
          if (!(err instanceof ExplorationLimitError)) throw err;
          print(`  ${boundsLabel(bounds).padEnd(18)} not run: ${err.message}`);
        }
      }
    }
  },
};
