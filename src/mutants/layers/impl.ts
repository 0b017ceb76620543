/**
 * The implementation layer over every system: each package's entries to its own impl runner
 * (src/seam/impl-runner.ts: the unpatched code first, faults not-run, the expected invariant decides),
 * each runner loaded only when asked; the results in the entries' order. The layer is unavailable
 * only when every runner is (the reasons joined); a runner unavailable alone makes its own entries
 * not-run. A user's patch that names no invariant, on a system with a tour that takes patches, is
 * judged as `conform --patch` judges it (src/seam/tour/patch-mutant.ts): one verdict on every path.
 */
import type { LayerRunner } from '../../seam/layer-runner.js';
import type { SystemImplRunner } from '../../seam/impl-runner.js';
import type { MutantEntry } from '../../core/manifest.js';
import type { MutantResult } from '../../core/verdict.js';
import { PACKAGES, packageOf, systemEntry, type SystemPackage } from '../../registry/systems.js';
import { selectModels } from '../../registry/select.js';
import { isUserPatchEntry } from '../../seam/patch-file.js';
import { EVERY_INVARIANT, type SystemTour } from '../../seam/tour/entry.js';
import { judgePatchEntry, tourConstants } from '../../seam/tour/patch-mutant.js';
import type { LayerRunOptions } from '../../seam/layer-runner.js';

/** The tour a user's patch entry naming no invariant is judged on, when its system has one that takes patches. */
async function patchTour(m: MutantEntry): Promise<SystemTour | undefined> {
  if (!isUserPatchEntry(m) || m.expectedInvariant !== EVERY_INVARIANT) return undefined;
  const tour = await systemEntry(m.system)?.tour?.();
  return tour?.isPatch ? tour : undefined;
}

/** A user's patch on its system's tour, with the layer's progress. */
async function onTour(tour: SystemTour, m: MutantEntry, options: LayerRunOptions): Promise<MutantResult> {
  const [model] = await selectModels([m.system], tourConstants(tour, options.constants ?? {}, false));
  options.log?.(`[impl ${m.id}] judged on the ${m.system} tour: the unpatched code, then the patched code, every check`);
  return judgePatchEntry(tour, m, {
    bounds: model!.bounds,
    progress: (name, attempts, total, states) => options.onProgress?.(attempts, total, 'attempts', `${name}: ${states} states reached`),
  });
}

export function implLayerRunner(packages: readonly SystemPackage[] = PACKAGES, packageFor: (system: string) => SystemPackage | undefined = packageOf): LayerRunner {
  const loaded = new Map<string, Promise<SystemImplRunner | string>>();
  // A runner, or why it cannot be loaded.
  const load = (p: SystemPackage): Promise<SystemImplRunner | string> => {
    let r = loaded.get(p.name);
    if (!r) {
      r = p.impl
        ? p.impl().then(
            (x) => x,
            (err: unknown) => `cannot load the ${p.name} impl runner: ${(err as Error).message}`,
          )
        : Promise.resolve(`${p.name} has no implementation layer`);
      loaded.set(p.name, r);
    }
    return r;
  };
  const whyNot = async (p: SystemPackage): Promise<string | null> => {
    const r = await load(p);
    return typeof r === 'string' ? r : r.unavailable();
  };
  return {
    layer: 'impl',
    async unavailable() {
      const reasons = await Promise.all(packages.filter((p) => p.impl).map(async (p) => ({ p: p.name, why: await whyNot(p) })));
      return reasons.length > 0 && reasons.every((r) => r.why !== null) ? reasons.map((r) => `${r.p}: ${r.why}`).join('; ') : null;
    },
    async run(mutants: readonly MutantEntry[], options) {
      const byId = new Map<string, MutantResult>();
      const groups = new Map<SystemPackage | undefined, MutantEntry[]>();
      for (const m of mutants) {
        const tour = await patchTour(m);
        if (tour) {
          byId.set(m.id, await onTour(tour, m, options));
          continue;
        }
        const p = packageFor(m.system);
        groups.set(p, [...(groups.get(p) ?? []), m]);
      }
      for (const [p, entries] of groups) {
        const mark = (verdict: 'invalid' | 'not-run', reason: string) => entries.forEach((m) => byId.set(m.id, { id: m.id, layer: 'impl', verdict, expectedInvariant: m.expectedInvariant, reason }));
        if (!p) {
          mark('invalid', `no system package holds ${[...new Set(entries.map((m) => m.system))].join(', ')}`);
          continue;
        }
        const r = await load(p);
        if (typeof r === 'string') {
          mark('invalid', r);
          continue;
        }
        const why = await r.unavailable();
        if (why !== null) {
          options.log?.(`[impl] ${p.name} not run: ${why}`);
          mark('not-run', why);
          continue;
        }
        for (const res of await r.run(entries, options)) byId.set(res.id, res);
      }
      // A runner that leaves an entry out reported nothing for it: invalid, never a silent pass.
      return mutants.map(
        (m) => byId.get(m.id) ?? { id: m.id, layer: 'impl', verdict: 'invalid', expectedInvariant: m.expectedInvariant, reason: `the ${m.system} impl runner reported no result for ${m.id}` },
      );
    },
  };
}

export const runner: LayerRunner = implLayerRunner();
