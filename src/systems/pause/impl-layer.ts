/**
 * The pause snapshot's implementation layer (src/seam/impl-runner.ts): the model-driven run
 * (src/systems/pause/drive/) on a real Valkey the runner starts. The unpatched code must pass the very walks
 * first (no invariant broken, no conformance failure); then each entry's patch
 * (mutants/pause/impl/Pn.ts) runs the same seeded walks until its first violation. Killed = the
 * walk's first violating step breaks the entry's expected invariant (read on the real system by
 * the ordinary checkers, which never know the patch); faults are not-run. A patch the walks do not
 * catch then runs the exhaustive tour (tour/, its expected invariant on every real state reached
 * breadth-first): what the walks cannot reach — failed reads, calls held before EXEC, a reply landing
 * late, versions past 2^31, the reconcile timer — the tour does.
 */
import { runImplEntries, type ImplOutcome } from '../../seam/impl-runner.js';
import type { LayerRunOptions } from '../../seam/layer-runner.js';
import type { MutantEntry } from '../../core/manifest.js';
import type { MutantResult } from '../../core/verdict.js';
import { projectRoot } from '../../core/project-root.js';
import { startTopology, ValkeyUnavailableError, type Topology, type TopologySpec } from '../../valkey/index.js';
import { asInfrastructureFault } from '../../valkey/fault.js';
import { loadPausePatch, type PausePatch } from './patch.js';
import { DRIVE_DEFAULTS, openDriveWorld, replayCommand, runPauseDrive, type DriveResult, type DriveWorld } from './drive/index.js';
import { walkTraces } from './drive/traces.js';
import { writeObserved } from '../../seam/tracecheck/store.js';
import { PAUSE_GATE_CONSTANTS, runPauseTour } from './tour/entry.js';
import { tourPassed, tourStageReport } from '../../seam/tour/stage.js';
import type { TourResult } from '../../seam/tour/result.js';
import { pauseConstants } from './system.js';
import { PAUSE_BASE_BOUNDS, type PauseBounds } from './model-state.js';
import { TourSetupError } from '../../seam/tour/entry.js';

export interface PauseImplOptions {
  readonly topology?: 'standalone' | 'cluster';
  readonly walks?: number;
  readonly steps?: number;
  readonly seed?: number;
  /** The tour's constants for a patch the walks do not catch (default: the base config). */
  readonly tourBounds?: PauseBounds;
  /** The bound a patch the walks hold is toured at first, with its width passes (default: verify's bound, PAUSE_GATE_CONSTANTS). */
  readonly widthBounds?: PauseBounds;
}

const gateBounds = () => pauseConstants(PAUSE_BASE_BOUNDS, PAUSE_GATE_CONSTANTS);

const SPECS: Readonly<Record<'standalone' | 'cluster', TopologySpec>> = { standalone: { kind: 'standalone' }, cluster: { kind: 'cluster', shards: 3 } };

function notRun(err: unknown): string | null {
  if (err instanceof ValkeyUnavailableError) return err.message;
  return asInfrastructureFault(err)?.message ?? null;
}

/** A run of the walks as the skeleton's outcome (src/seam/impl-runner.ts). */
function outcomeOf(r: DriveResult, topology: 'standalone' | 'cluster', patch?: string): ImplOutcome {
  const v = r.violation;
  if (!v) {
    // A difference from the twin is a failure of the base; for a mutant it is not a kill by itself.
    if (r.conformance && patch === undefined)
      return {
        kind: 'invalid',
        detail: `the unpatched code does not conform to the twin (walk ${r.conformance.walk}, step ${r.conformance.step}: ${r.conformance.message}); replay: ${replayCommand({ topology, seed: r.seed, steps: r.steps, walk: r.conformance.walk })}`,
      };
    const diverged = r.conformance ? `; it diverged from the twin (walk ${r.conformance.walk}, step ${r.conformance.step}: ${r.conformance.message})` : '';
    return { kind: 'held', detail: `${r.walks.length} walks, ${r.stepsRun} steps on real Valkey: no invariant broken${diverged}`, extra: { seed: r.seed } };
  }
  const checks = [...new Set(v.invariants.map((x) => x.invariant))];
  const replay = replayCommand({ topology, seed: r.seed, steps: r.steps, walk: v.walk, ...(patch ? { patch } : {}) });
  const what = v.invariants.map((x) => `${x.invariant}: ${x.message}`).join('; ');
  return { kind: 'violated', checks, detail: `walk ${v.walk}, step ${v.step}: ${what}; replay: ${replay}`, extra: { seed: r.seed, traceLength: v.step, replay } };
}

/** "N of M model states (x %)": how much of the model's graph a tour reached. */
export function reachedShare(r: { readonly covered: { readonly states: number }; readonly model: { readonly states: number } }): string {
  const pct = r.model.states === 0 ? 100 : (100 * r.covered.states) / r.model.states;
  return `${r.covered.states} of ${r.model.states} model states (${pct.toFixed(1)} %)`;
}

/**
 * The tour of a patch the walks did not catch, as the skeleton's outcome (the tour entry runs the
 * version-width passes after a tour that held, with the same invariant).
 */
async function tourOutcome(m: MutantEntry, walks: string, bounds: PauseBounds | undefined, widthBounds: PauseBounds): Promise<ImplOutcome> {
  try {
    // Cheapest first: verify's bound (its width passes run inside the tour entry after it holds), then
    // the whole bound. A patch that only the whole bound's graph or only another width reveals pays
    // for it; one that dies at verify's bound is done in seconds, not minutes.
    const small = await runPauseTour({ bounds: widthBounds, mutant: m });
    const { result, tracePath, replay } = small.result.failure ? small : await runPauseTour({ bounds, mutant: m });
    const f = result.failure;
    if (!f) {
      const share = reachedShare(result);
      // A tour that reached fewer model states than there are stopped exploring early: no verdict.
      if (result.covered.states < result.model.states)
        return { kind: 'invalid', detail: `the walks held (${walks}); the tour reached only ${share}: it stopped exploring early, so holding is no verdict` };
      return {
        kind: 'held',
        detail: `the walks held (${walks}); the tour held too: ${result.states} real states (${share}), ${result.attempts} attempts, ${m.expectedInvariant} never broken, in its version-width passes too`,
      };
    }
    return {
      kind: 'violated',
      checks: [f.check],
      detail: `the walks held (${walks}); the tour broke ${f.check} after ${f.path.length - 1} attempts: ${f.message}${replay ? `; replay: ${replay}` : ''}`,
      extra: { traceLength: f.path.length - 1, ...(tracePath ? { tracePath } : {}), ...(replay ? { replay } : {}) },
    };
  } catch (err) {
    if (err instanceof TourSetupError) return { kind: 'invalid', detail: err.message };
    throw err;
  }
}

export function pauseImplRunner(o: PauseImplOptions = {}): { run(entries: readonly MutantEntry[], options: LayerRunOptions): Promise<MutantResult[]> } {
  const topologyName = o.topology ?? 'standalone';
  const drive = { walks: o.walks ?? DRIVE_DEFAULTS.walks, steps: o.steps ?? DRIVE_DEFAULTS.steps, seed: o.seed ?? DRIVE_DEFAULTS.seed };
  return {
    run(entries, options) {
      const log = options.log ?? (() => {});
      // The walks are the runner's own (a --runs meant for the property layers does not change them).
      const walks = { walks: drive.walks, steps: drive.steps, seed: options.seed ?? drive.seed };
      let topology: Topology | undefined;
      return runImplEntries<DriveWorld, PausePatch>(entries, options, {
        unit: 'runs',
        open: async () => {
          topology = await startTopology(SPECS[topologyName]);
          return openDriveWorld(topology);
        },
        close: async (world) => {
          await world.close().catch(() => {});
          await topology?.stop();
        },
        base: async (world) => {
          log(`[impl pause] the unpatched code: ${walks.walks} walks of ≤ ${walks.steps} steps, seed ${walks.seed}, ${topologyName}`);
          const r = await runPauseDrive(world, walks);
          // What the unpatched walks did, for trace validation: each expected to be accepted.
          writeObserved('impl-pause-unpatched', walkTraces(r.walks, { topology: topologyName, seed: r.seed, steps: r.steps }));
          const walked = outcomeOf(r, topologyName);
          if (walked.kind !== 'held' || !options.onBaseReport) return walked;
          // The conform stage's pause tour at verify's bound, run here once (as fencing's unpatched
          // tour is): its report is that stage's pause section, and a real graph that is not the
          // model's makes every entry invalid, as for any failing baseline.
          const bounds = gateBounds();
          log(
            `[impl pause] the unpatched code: the conformance tour at verify's bound (${Object.entries(PAUSE_GATE_CONSTANTS)
              .map(([k, v]) => `${k}=${v}`)
              .join(', ')})`,
          );
          const startedAt = new Date();
          // In a verify part, its part of the states (the parts' reports merge into the whole tour).
          const tour = await runPauseTour({ bounds, ...(options.shard && options.shard.count > 1 ? { shard: options.shard } : {}) });
          options.onBaseReport(
            'conform',
            'pause',
            tourStageReport(tour.result as unknown as TourResult<unknown, unknown, unknown>, {
              stage: 'conform',
              startedAt,
              ...(tour.tracePath ? { tracePath: tour.tracePath } : {}),
              ...(tour.replay ? { replay: tour.replay } : {}),
            }),
          );
          // The tour entry ran the version-width passes after the tour held (a part of a verify run leaves them to the whole).
          if (tourPassed(tour.result as unknown as TourResult<unknown, unknown, unknown>)) return walked;
          return {
            kind: 'violated',
            checks: [tour.result.failure?.check ?? 'Conformance'],
            detail: `the unpatched conformance tour failed: ${tour.result.failure?.message ?? 'the real graph differs from the model'}`,
          };
        },
        loadPatch: async (m) => {
          const file = m.layers.impl?.patch;
          if (!file) throw new Error(`${m.id} names no impl patch`);
          return loadPausePatch(file, projectRoot);
        },
        mutant: async (world, m, patch) => {
          const r = await runPauseDrive(world, { ...walks, patch });
          if (r.violation) log(`[impl ${m.id}] walk ${r.violation.walk} (seed ${r.seed}): ${r.violation.labels.join(' · ')}`);
          // The counterexample walk's observed behaviour, labelled with the mutant (the walk itself does not know it).
          const cx = r.violation ? r.walks.filter((w) => w.index === r.violation!.walk) : [];
          const file = m.layers.impl?.patch;
          writeObserved(`impl-pause-${m.id}`, walkTraces(cx, { topology: topologyName, seed: r.seed, steps: r.steps, mutant: m.id, ...(file ? { patch: file } : {}) }));
          const walked = outcomeOf(r, topologyName, m.layers.impl?.patch);
          if (walked.kind !== 'held') return walked;
          log(`[impl ${m.id}] the walks held (${walked.detail}); the tour follows the real graph for ${m.expectedInvariant}`);
          return tourOutcome(m, walked.detail, o.tourBounds, o.widthBounds ?? gateBounds());
        },
        fault: notRun,
      });
    },
  };
}
