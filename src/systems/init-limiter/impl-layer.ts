/**
 * The init-limiter package's implementation layer (src/seam/impl-runner.ts): the drive's ordinary
 * checks (drive/checks.ts: real HTTP over real sockets, /metrics, forced races through the hold
 * points and the manual clock) on the real reference server, unpatched first, then with each
 * entry's patch (mutants/init-limiter/impl/In.ts, applied through server/parts.ts patchedParts).
 *
 * Every mutant meets every check, in the checks' own order: the runner never picks checks by the
 * mutant (a check's `catches` is documentation, not used here). Killed = a check that broke reads
 * the entry's expected invariant; a check with no spec invariant reports itself as
 * `check:<id>`. A check that cannot complete on a patched server (a wait that never ends, a reply
 * that never comes) broke; one that is not run where the unpatched server ran it is said so. A
 * server that cannot be started is a fault (not-run).
 */
import type { MutantEntry } from '../../core/manifest.js';
import { projectRoot } from '../../core/project-root.js';
import { atMost } from '../../core/at-most.js';
import type { MutantResult } from '../../core/verdict.js';
import { runImplEntries, type ImplOutcome, type SystemImplRunner } from '../../seam/impl-runner.js';
import type { LayerRunOptions } from '../../seam/layer-runner.js';
import { CHECKS, runCheck, type Check, type CheckOutcome } from './drive/checks.js';
import { ControlClient } from './drive/control-client.js';
import { loadInitLimiterPatch, startInitLimiterServer, type InitLimiterPatch, type InitLimiterServer } from './server/index.js';
import { TourSetupError } from '../../seam/tour/entry.js';
import type { TourResult } from '../../seam/tour/result.js';
import { tourPassed, tourStageReport } from '../../seam/tour/stage.js';
import { INIT_LIMITER_BASE_BOUNDS } from './model-state.js';
import { initLimiterConstants } from './system.js';
import { INIT_LIMITER_GATE_CONSTANTS, runInitLimiterTour } from './tour/entry.js';

/** The reference server could not be started: the run is no verdict. */
export class ReferenceServerFault extends Error {
  override readonly name = 'ReferenceServerFault';
}

export interface CheckReport extends CheckOutcome {
  readonly id: string;
  /** What a broken check reports: its spec invariants, or `check:<id>` when it reads none. */
  readonly names: readonly string[];
  readonly ms: number;
}

/** What the invariant names of a broken `check` are. */
export function reportedNames(check: Check): readonly string[] {
  return check.invariants.length > 0 ? check.invariants : [`check:${check.id}`];
}

async function startFor(check: Check, patch: InitLimiterPatch | undefined): Promise<InitLimiterServer> {
  try {
    return await startInitLimiterServer({ ...check.server, testSeams: true, ...(patch ? { patch } : {}) });
  } catch (err) {
    throw new ReferenceServerFault(`the reference server for ${check.id} could not start: ${(err as Error).message}`);
  }
}

/** One check on a fresh reference server of the configuration it assumes; a check that throws broke. */
export async function checkOnce(check: Check, patch?: InitLimiterPatch): Promise<CheckReport> {
  const t0 = performance.now();
  const s = await startFor(check, patch);
  let out: CheckOutcome;
  try {
    out = await runCheck(check, s.url, new ControlClient(s.url));
  } catch (err) {
    out = { status: 'broken', observed: `the check could not complete: ${(err as Error).message.split('\n')[0]}` };
  } finally {
    await s.stop();
  }
  return { id: check.id, names: reportedNames(check), ms: Math.round(performance.now() - t0), ...out };
}

/**
 * Every check on the (patched) reference server, each on a fresh one, the reports in the checks'
 * order; `concurrency` checks under way at once (each its own server: a broken check mostly waits
 * out a read timeout, so on a patched server they overlap those waits).
 */
export async function checkAll(patch?: InitLimiterPatch, checks: readonly Check[] = CHECKS, onCheck?: (r: CheckReport) => void, concurrency = 1): Promise<CheckReport[]> {
  const out: CheckReport[] = new Array(checks.length);
  await atMost(checks, concurrency, async (c, i) => {
    const r = await checkOnce(c, patch);
    onCheck?.(r);
    out[i] = r;
  });
  return out;
}

/**
 * How many of a patched run's checks overlap. The unpatched run keeps them one at a time: it must
 * never break for contention, and a patched run's extra breaks only add to `alsoBroken`.
 */
const PATCHED_CHECKS_AT_ONCE = 3;

const DRIVE = 'npx tsx src/systems/init-limiter/drive/main.ts';

/**
 * The checks' reports as the skeleton's outcome; `patchFile` for a mutant (its replay names it, and
 * the broken check that reads `replayFor` when one does — only the replay line, never the verdict).
 */
export function outcomeOf(reports: readonly CheckReport[], patchFile?: string, replayFor?: string): ImplOutcome {
  const broken = reports.filter((r) => r.status === 'broken');
  const notRun = reports.filter((r) => r.status === 'not-run');
  const secs = (reports.reduce((a, r) => a + r.ms, 0) / 1000).toFixed(1);
  if (patchFile === undefined) {
    if (broken.length > 0) return { kind: 'violated', checks: [...new Set(broken.flatMap((r) => r.names))], detail: broken.map((r) => `${r.id}: ${r.observed}`).join('; ') };
    if (notRun.length > 0) return { kind: 'invalid', detail: `on the reference server of its own configuration a check was not run: ${notRun.map((r) => `${r.id} (${r.observed})`).join('; ')}` };
    return { kind: 'held', detail: `${reports.length} checks held over real HTTP on the reference server (${secs} s)` };
  }
  const skipped = notRun.length > 0 ? `; not run: ${notRun.map((r) => `${r.id} (${r.observed})`).join(', ')}` : '';
  if (broken.length === 0) return { kind: 'held', detail: `${reports.length - notRun.length} checks held on the patched server (${secs} s)${skipped}` };
  const first = broken.find((r) => replayFor !== undefined && r.names.includes(replayFor)) ?? broken[0]!;
  const replay = `${DRIVE} --patch ${patchFile} --check ${first.id}`;
  return {
    kind: 'violated',
    checks: [...new Set(broken.flatMap((r) => r.names))],
    detail: `${broken.length} of ${reports.length} checks broke — ${broken.map((r) => `${r.id} [${r.names.join(', ')}]: ${r.observed}`).join('; ')}${skipped}; replay: ${replay}`,
    extra: { replay },
  };
}

function patchFileOf(m: MutantEntry): string {
  const file = m.layers.impl?.patch;
  if (!file) throw new Error(`${m.id} names no impl patch`);
  return file;
}

/** verify's tour bound (the tour's gate constants over the spec's base config). */
const GATE_BOUNDS = initLimiterConstants(INIT_LIMITER_BASE_BOUNDS, INIT_LIMITER_GATE_CONSTANTS);
const GATE_LABEL = Object.entries(INIT_LIMITER_GATE_CONSTANTS)
  .map(([k, v]) => `${k}=${v}`)
  .join(', ');

/**
 * The tour of a patch the checks did not catch (its expected invariant on every real state reached),
 * as the skeleton's outcome: at verify's bound, with the entry's constants over it (a mutant judged
 * with the limiter disabled tours the limiter-off configuration).
 */
async function tourOutcome(m: MutantEntry, checked: string): Promise<ImplOutcome> {
  try {
    const bounds = m.constants ? initLimiterConstants(GATE_BOUNDS, m.constants) : GATE_BOUNDS;
    const label = m.constants
      ? `${GATE_LABEL}, ${Object.entries(m.constants)
          .map(([k, v]) => `${k}=${v}`)
          .join(', ')}`
      : GATE_LABEL;
    const { result, tracePath, replay } = await runInitLimiterTour({ bounds, mutant: m });
    const f = result.failure;
    if (!f) return { kind: 'held', detail: `${checked}; the tour at ${label} held too: ${result.states} real states, ${result.attempts} attempts, ${m.expectedInvariant} never broken` };
    return {
      kind: 'violated',
      checks: [f.check],
      detail: `${checked}; the tour broke ${f.check} after ${f.path.length - 1} attempts: ${f.message}${replay ? `; trace: ${replay}` : ''}`,
      extra: { traceLength: f.path.length - 1, ...(tracePath ? { tracePath } : {}), ...(replay ? { replay } : {}) },
    };
  } catch (err) {
    if (err instanceof TourSetupError) return { kind: 'invalid', detail: err.message };
    throw err;
  }
}

export interface InitLimiterImplOptions {
  readonly checks?: readonly Check[];
  /** Run the tour for a patch the checks did not catch (default true). */
  readonly tour?: boolean;
}

export function runInitLimiterEntries(entries: readonly MutantEntry[], options: LayerRunOptions, o: InitLimiterImplOptions = {}): Promise<MutantResult[]> {
  const log = options.log ?? (() => {});
  const checks = o.checks ?? CHECKS;
  return runImplEntries<null, InitLimiterPatch>(entries, options, {
    unit: 'runs',
    // Each check starts its own reference server and mostly waits on it (hold points, a manual
    // clock, a step's read timeout): six mutants side by side take about the longest one's time.
    parallel: 6,
    open: async () => null,
    close: async () => {},
    base: async () => {
      log(`[impl init-limiter] the unpatched reference server: ${checks.length} checks`);
      const checked = outcomeOf(await checkAll(undefined, checks));
      if (checked.kind !== 'held' || !options.onBaseReport) return checked;
      // The conform stage's init-limiter tour at verify's bound, run here once (as pause's is): its
      // report is that stage's section, and a real graph that is not the model's makes every entry invalid.
      log(`[impl init-limiter] the unpatched code: the conformance tour at verify's bound (${GATE_LABEL})`);
      const startedAt = new Date();
      const tour = await runInitLimiterTour({ bounds: GATE_BOUNDS, ...(options.shard && options.shard.count > 1 ? { shard: options.shard } : {}) });
      const result = tour.result as unknown as TourResult<unknown, unknown, unknown>;
      options.onBaseReport(
        'conform',
        'init-limiter',
        tourStageReport(result, { stage: 'conform', startedAt, ...(tour.tracePath ? { tracePath: tour.tracePath } : {}), ...(tour.replay ? { replay: tour.replay } : {}) }),
      );
      if (tourPassed(result)) return checked;
      return {
        kind: 'violated',
        checks: [tour.result.failure?.check ?? 'Conformance'],
        detail: `the unpatched conformance tour failed: ${tour.result.failure?.message ?? 'the real graph differs from the model'}`,
      };
    },
    loadPatch: (m) => loadInitLimiterPatch(patchFileOf(m), projectRoot),
    mutant: async (_rig, m, patch) => {
      const checked = outcomeOf(await checkAll(patch, checks, undefined, PATCHED_CHECKS_AT_ONCE), patchFileOf(m), m.expectedInvariant);
      if (checked.kind !== 'held' || o.tour === false) return checked;
      log(`[impl ${m.id}] the checks held (${checked.detail}); the tour follows the real graph for ${m.expectedInvariant}`);
      return tourOutcome(m, checked.detail);
    },
    fault: (err) => (err instanceof ReferenceServerFault ? err.message : null),
  });
}

export const initLimiterImplRunner: SystemImplRunner = {
  system: 'init-limiter',
  // Node's own http on loopback: nothing to be missing.
  unavailable: async () => null,
  run: (mutants, options) =>
    runInitLimiterEntries(
      mutants.filter((m) => !options.only || options.only.includes(m.id)),
      options,
    ),
};
