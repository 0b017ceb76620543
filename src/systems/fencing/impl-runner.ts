/**
 * The fencing package's implementation layer. Migration mutants (M1–M9: mutated Lua, prelude, gate
 * rule or deploy records, mutants/fencing/impl/Mx.ts) run on the conformance tour: the patched
 * implementation's own state graph explored breadth-first on real Valkey, the expected invariant
 * checked alone (with TypeOK) in every real state. Deterministic: no seed, no search budget. Killed =
 * the expected invariant breaks in a state of the mutant's real graph (the BFS path from Init is the
 * counterexample, replayed by `trace replay`); equivalent = the real graph is the unpatched one;
 * survived = a different graph where nothing broke. The unpatched implementation passes the full
 * conformance tour first. The failover model's entries (R1) run on the failover drill
 * (failover/impl-layer.ts).
 */
import type { MutantEntry } from '../../core/manifest.js';
import { projectRoot } from '../../core/project-root.js';
import type { MutantResult } from '../../core/verdict.js';
import { runImplEntries, type ImplOutcome, type SystemImplRunner } from '../../seam/impl-runner.js';
import type { LayerRunOptions } from '../../seam/layer-runner.js';
import { asInfrastructureFault } from '../../valkey/fault.js';
import { valkeyUnavailableReason, ValkeyUnavailableError } from '../../valkey/index.js';
import { runFailoverEntries } from './failover/impl-layer.js';
import { INVARIANT_NAMES, type InvariantName } from './invariants.js';
import { IMPL_PATCH_TYPE, isImplPatch, type ImplPatch } from './patch.js';
import { DEFAULT_BOUNDS } from './state.js';
import { runConform, type ConformRun } from './tour/run.js';
import { openTourRig, type TourRig } from './tour/rig.js';
import { tourObservedTrace } from './tracecheck.js';
import { writeObserved } from '../../seam/tracecheck/store.js';
import { modelGraphYielding } from '../../seam/tour/model-graph.js';
import { fencingTourModel } from './tour/system.js';
import { EVERY_INVARIANT } from '../../seam/tour/entry.js';
import { isUserPatchEntry, loadPatchModule, patchFileRecord } from '../../seam/patch-file.js';
import { tourStageReport } from '../../seam/tour/stage.js';

/** The ImplPatch a manifest entry names (mutants/fencing/impl/Mx.ts default export). */
export async function loadPatch(entry: MutantEntry): Promise<ImplPatch> {
  const file = entry.layers.impl?.patch;
  if (!file) throw new Error(`${entry.id} names no impl patch`);
  return loadPatchModule(file, isImplPatch, IMPL_PATCH_TYPE);
}

function fault(err: unknown): string | null {
  if (err instanceof ValkeyUnavailableError) return err.message;
  return asInfrastructureFault(err)?.message ?? null;
}

/** The tour an entry reruns with: a manifest mutant by id, a user's patch by its file. */
function conformCommand(m?: MutantEntry): string {
  if (!m) return 'fencecheck conform';
  return isUserPatchEntry(m) ? `fencecheck conform --patch ${m.layers.impl?.patch ?? ''}` : `fencecheck conform --mutant ${m.id}`;
}

function outcomeOf(run: ConformRun, m?: MutantEntry): ImplOutcome {
  const r = run.result;
  if (!r.failure) {
    if (!m)
      return r.equalToModel
        ? { kind: 'held', detail: `${r.states} states, ${r.attempts} attempts, the model's graph (${(r.durationMs / 1000).toFixed(1)} s)` }
        : { kind: 'invalid', detail: "the real graph differs from the model's (fencecheck conform)" };
    return r.equalToBaseline
      ? { kind: 'equivalent', detail: `the real graph equals the unmutated one within the bounds (${r.states} states, ${r.attempts} attempts, the same decision in every reply)` }
      : { kind: 'held', detail: `the real graph differs (${r.states} states) but ${m.expectedInvariant === EVERY_INVARIANT ? 'every invariant' : m.expectedInvariant} holds in every state of it` };
  }
  const f = r.failure;
  const replay = run.replay ?? conformCommand(m);
  return {
    kind: 'violated',
    checks: [f.check],
    detail: `${f.check} after ${f.path.length - 1} steps of the real graph${m ? '' : `: ${f.message}`}; replay: ${replay}`,
    extra: { traceLength: f.path.length, ...(run.tracePath ? { tracePath: run.tracePath } : {}), replay },
  };
}

/** The migration model's impl entries on the tour. */
export function runTourEntries(entries: readonly MutantEntry[], options: LayerRunOptions): Promise<MutantResult[]> {
  const tours = entries.length + 1;
  let done = 0;
  // The unpatched graph's digest: a mutant's graph equal to it is equivalent.
  let baseline = '';
  const progress = (what: string) => (attempts: number, total: number) => options.onProgress?.(done, tours, 'tours', `${what}: ${Math.floor((100 * attempts) / total)} % of its attempts`);
  return runImplEntries<TourRig, ImplPatch>(entries, options, {
    unit: 'tours',
    // The model's graph before any server runs (see runConform): a signal meanwhile ends at once.
    open: async () => {
      await modelGraphYielding(fencingTourModel(DEFAULT_BOUNDS));
      return openTourRig();
    },
    close: (rig) => rig.close(),
    base: async (rig) => {
      const shard = options.shard && options.shard.count > 1 ? options.shard : undefined;
      options.log?.(
        `[impl] the unpatched implementation: full conformance tour${shard ? ` (shard ${shard.index}/${shard.count} of its states; the other shards' parts complete it at the merge)` : ''}`,
      );
      const startedAt = new Date();
      const run = await runConform({ bounds: DEFAULT_BOUNDS, rig, ...(shard ? { shard } : {}), onProgress: progress('unpatched') });
      // The conform stage's tour at the spec's bounds, run once: its report is that stage's.
      options.onBaseReport?.(
        'conform',
        'fencing',
        tourStageReport(run.result, { stage: 'conform', startedAt, ...(run.tracePath ? { tracePath: run.tracePath } : {}), ...(run.replay ? { replay: run.replay } : {}) }),
      );
      // The unpatched graph is the model's (else every entry is invalid): a shard knows the whole one's digest from the model.
      baseline = run.result.equalToModel ? run.result.whole.digest : (run.result.digest ?? '');
      done += 1;
      return outcomeOf(run);
    },
    loadPatch: async (m) => {
      if (!(INVARIANT_NAMES as readonly string[]).includes(m.expectedInvariant) && m.expectedInvariant !== EVERY_INVARIANT) throw new Error(`unknown invariant ${m.expectedInvariant}`);
      return loadPatch(m);
    },
    mutant: async (rig, m, patch) => {
      options.log?.(`[impl ${m.id}] the real graph of ${m.layers.impl?.patch}, ${m.expectedInvariant === EVERY_INVARIANT ? 'every invariant' : `${m.expectedInvariant} alone`}`);
      // The trace records the patch file (a user's patch has no manifest id to name).
      const patchFile = patchFileRecord(m.layers.impl!.patch!, projectRoot);
      const invariant = m.expectedInvariant as InvariantName | typeof EVERY_INVARIANT;
      const run = await runConform({ bounds: DEFAULT_BOUNDS, patch, invariant, ...(isUserPatchEntry(m) ? {} : { mutant: m.id }), patchFile, rig, baseline, onProgress: progress(m.id) });
      done += 1;
      // The counterexample path's observed behaviour, labelled with the mutant (the tour does not know it), for trace validation.
      const f = run.result.failure;
      if (f && !isUserPatchEntry(m))
        writeObserved(`impl-tour-${m.id.replace(/[^A-Za-z0-9_-]+/g, '_')}`, [
          tourObservedTrace(f.path, { id: `tour ${m.id} ${f.check} after ${f.path.length - 1} steps`, bounds: DEFAULT_BOUNDS, mutant: m.id, replay: run.replay ?? conformCommand(m) }),
        ]);
      return outcomeOf(run, m);
    },
    fault,
  });
}

/** Both models' entries, each to its own run, in the entries' order. */
export const implRunner: SystemImplRunner = {
  system: 'fencing',
  unavailable: valkeyUnavailableReason,
  async run(mutants, options) {
    const mine = mutants.filter((m) => !options.only || options.only.includes(m.id));
    const byId = new Map<string, MutantResult>();
    for (const r of await runTourEntries(
      mine.filter((m) => m.system === 'fencing'),
      options,
    ))
      byId.set(r.id, r);
    for (const r of await runFailoverEntries(
      mine.filter((m) => m.system === 'failover'),
      options,
    ))
      byId.set(r.id, r);
    return mine.flatMap((m) => byId.get(m.id) ?? []);
  },
};
