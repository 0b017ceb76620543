/**
 * The pause snapshot's implementation layer (src/seam/impl-runner.ts): the model-driven run
 * (src/systems/pause/drive/) on a real Valkey the runner starts. The unpatched code must pass the very walks
 * first (no invariant broken, no conformance failure); then each entry's patch
 * (mutants/pause/impl/Pn.ts) runs the same seeded walks until its first violation. Killed = the
 * walk's first violating step breaks the entry's expected invariant (read on the real system by
 * the ordinary checkers, which never know the patch); faults are not-run.
 */
import type { SystemImplRunner } from '../../seam/impl-runner.js';
import type { MutantEntry } from '../../core/manifest.js';
import type { MutantResult } from '../../core/verdict.js';
import { projectRoot } from '../../core/project-root.js';
import { startTopology, valkeyUnavailableReason, ValkeyUnavailableError, type Topology, type TopologySpec } from '../../valkey/index.js';
import { asInfrastructureFault } from '../../valkey/fault.js';
import { loadPausePatch } from './patch.js';
import { DRIVE_DEFAULTS, openDriveWorld, replayCommand, runPauseDrive, type DriveResult, type DriveWorld } from './drive/index.js';

export interface PauseImplOptions {
  readonly topology?: 'standalone' | 'cluster';
  readonly walks?: number;
  readonly steps?: number;
  readonly seed?: number;
}

const SPECS: Readonly<Record<'standalone' | 'cluster', TopologySpec>> = { standalone: { kind: 'standalone' }, cluster: { kind: 'cluster', shards: 3 } };

function notRun(err: unknown): string | null {
  if (err instanceof ValkeyUnavailableError) return err.message;
  return asInfrastructureFault(err)?.message ?? null;
}

/** The first violation of a run as a verdict for `entry`. */
function verdictOf(entry: MutantEntry, r: DriveResult, topology: 'standalone' | 'cluster', startedAt: number): MutantResult {
  const base = { id: entry.id, layer: 'impl' as const, expectedInvariant: entry.expectedInvariant, seed: r.seed, durationMs: Math.round(performance.now() - startedAt) };
  const v = r.violation;
  if (!v) {
    const diverged = r.conformance ? `; it diverged from the twin (walk ${r.conformance.walk}, step ${r.conformance.step}: ${r.conformance.message})` : '';
    return { ...base, verdict: 'survived', reason: `${r.walks.length} walks, ${r.stepsRun} steps on real Valkey: no invariant broken${diverged}` };
  }
  const fired: string[] = [...new Set(v.invariants.map((x) => x.invariant))];
  const replay = replayCommand({ topology, seed: r.seed, steps: r.steps, walk: v.walk, ...(entry.layers.impl?.patch ? { patch: entry.layers.impl.patch } : {}) });
  const what = v.invariants.map((x) => `${x.invariant}: ${x.message}`).join('; ');
  const common = { ...base, violated: fired.includes(entry.expectedInvariant) ? entry.expectedInvariant : fired[0]!, alsoBroken: fired.filter((n) => n !== entry.expectedInvariant), traceLength: v.step, replay };
  const reason = `walk ${v.walk}, step ${v.step}: ${what}; replay: ${replay}`;
  return fired.includes(entry.expectedInvariant) ? { ...common, verdict: 'killed', reason } : { ...common, verdict: 'wrong-invariant', reason };
}

export function pauseImplRunner(o: PauseImplOptions = {}): SystemImplRunner {
  const topologyName = o.topology ?? 'standalone';
  const drive = { walks: o.walks ?? DRIVE_DEFAULTS.walks, steps: o.steps ?? DRIVE_DEFAULTS.steps, seed: o.seed ?? DRIVE_DEFAULTS.seed };
  return {
    system: 'pause',
    unavailable: valkeyUnavailableReason,
    async run(mutants, options) {
      const selected = mutants.filter((m) => m.system === 'pause' && (!options.only || options.only.includes(m.id)));
      if (selected.length === 0) return [];
      const log = options.log ?? (() => {});
      // The walks are the runner's own (a --runs meant for the property layers does not change them).
      const walks = drive.walks;
      const seed = options.seed ?? drive.seed;
      const all = (verdict: 'not-run' | 'invalid', reason: string): MutantResult[] => selected.map((m) => ({ id: m.id, layer: 'impl', verdict, expectedInvariant: m.expectedInvariant, reason }));
      let topology: Topology | undefined;
      let world: DriveWorld | undefined;
      try {
        topology = await startTopology(SPECS[topologyName]);
        world = await openDriveWorld(topology);
        const total = selected.length + 1;
        log(`[impl pause] the unpatched code: ${walks} walks of ≤ ${drive.steps} steps, seed ${seed}, ${topologyName}`);
        const base = await runPauseDrive(world, { walks, steps: drive.steps, seed });
        options.onProgress?.(1, total, 'runs', 'unpatched');
        const broken = base.violation ?? base.conformance;
        if (broken) {
          const why = base.violation
            ? `the unpatched code breaks ${base.violation.invariants.map((x) => x.invariant).join(', ')} (walk ${base.violation.walk}, step ${base.violation.step})`
            : `the unpatched code does not conform to the twin (walk ${base.conformance!.walk}, step ${base.conformance!.step}: ${base.conformance!.message})`;
          const reason = `${why}; replay: ${replayCommand({ topology: topologyName, seed, steps: drive.steps, walk: broken.walk })}`;
          log(`[impl pause] ${reason}`);
          return all('invalid', reason);
        }
        log(`[impl pause] unpatched: ${base.walks.length} walks, ${base.stepsRun} steps, no violation, no conformance failure (${(base.durationMs / 1000).toFixed(1)} s)`);
        const results: MutantResult[] = [];
        for (const [i, m] of selected.entries()) {
          const t0 = performance.now();
          const result = await runOne(m, world, { walks, steps: drive.steps, seed }, topologyName, t0, log);
          log(`[impl ${m.id}] ${result.verdict}${result.violated ? ` by ${result.violated}` : ''}: ${result.reason ?? ''}`);
          options.onProgress?.(i + 2, total, 'runs', `${m.id} ${result.verdict}`);
          results.push(result);
        }
        return results;
      } catch (err) {
        const why = notRun(err);
        if (why !== null) return all('not-run', why);
        return all('invalid', `the unpatched run crashed: ${(err as Error).stack ?? String(err)}`);
      } finally {
        await world?.close().catch(() => {});
        await topology?.stop();
      }
    },
  };
}

async function runOne(m: MutantEntry, world: DriveWorld, drive: { walks: number; steps: number; seed: number }, topology: 'standalone' | 'cluster', t0: number, log: (line: string) => void): Promise<MutantResult> {
  const base = { id: m.id, layer: 'impl' as const, expectedInvariant: m.expectedInvariant };
  const file = m.layers.impl?.patch;
  if (!file) return { ...base, verdict: 'invalid', reason: `${m.id} names no impl patch` };
  let patch;
  try {
    patch = await loadPausePatch(file, projectRoot);
  } catch (err) {
    return { ...base, verdict: 'invalid', reason: `patch: ${(err as Error).message}` };
  }
  try {
    const r = await runPauseDrive(world, { ...drive, patch });
    if (r.violation) log(`[impl ${m.id}] walk ${r.violation.walk} (seed ${r.seed}): ${r.violation.labels.join(' · ')}`);
    return verdictOf(m, r, topology, t0);
  } catch (err) {
    const why = notRun(err);
    if (why !== null) return { ...base, verdict: 'not-run', reason: why };
    return { ...base, verdict: 'invalid', reason: (err as Error).stack ?? String(err), durationMs: Math.round(performance.now() - t0) };
  }
}

/** The runner the impl layer loads (src/seam/impl-runner.ts): standalone, the default walks. */
export const implRunner: SystemImplRunner = pauseImplRunner();
