/**
 * What one verify runs: with `--shard i/n`, every shardable stage's part i/n (`--shard i/n` on its
 * command) and its share of the others (dealt round-robin in start order, so each runs in exactly
 * one shard and the long ones spread); and which stage's report another stage's run gives — the
 * impl layer's unpatched tour is the conform stage's tour at the spec's bounds, so conform is not
 * run again when mutants:impl runs (it writes the tour's report where conform's stdout would go).
 */
import type { MutantManifest } from '../core/manifest.js';
import { mutantsFor } from '../core/manifest.js';
import type { StageOptions } from '../core/stage-spec.js';
import type { Stage } from '../core/stage.js';
import { WHOLE, type Shard } from '../seam/tour/shard.js';
import { TOUR_NAMES } from '../registry/systems.js';
import { LAYERS } from '../core/manifest.js';
import { inMutantShard } from '../mutants/shard.js';
import { mutationScore } from '../report/score.js';
import type { MutationMatrix } from '../report/verify-doc.js';

/** A stage whose report another stage's run writes (the serving stage declares it: `serves`). */
export interface Served {
  readonly stage: string;
  readonly by: string;
}

/** Who serves whom in a catalogue. */
export function servedIn(catalogue: readonly Stage[]): Served[] {
  return catalogue.flatMap((s) => (s.serves !== undefined ? [{ stage: s.serves, by: s.name }] : []));
}

export interface VerifyPlan {
  /** The stages this verify runs (served ones included: they show as stages), in catalogue order. */
  readonly stages: readonly Stage[];
  /** The stages run as a part (`--shard i/n` added to their command). */
  readonly sharded: readonly string[];
  /** Served stage → how. */
  readonly served: ReadonlyMap<string, Served>;
}

export function planVerify(selected: readonly Stage[], opts: StageOptions, shard: Shard = WHOLE, manifest?: MutantManifest): VerifyPlan {
  const names = new Set(selected.map((s) => s.name));
  let k = 0;
  const stages = selected.filter((s) => (shard.count === 1 || s.shardable ? true : k++ % shard.count === shard.index - 1));
  const sharded = shard.count > 1 ? stages.filter((s) => s.shardable).map((s) => s.name) : [];
  const served = new Map<string, Served>();
  for (const s of servedIn(selected)) {
    if (!names.has(s.stage) || !names.has(s.by)) continue;
    // The impl layer keeps the spec's bounds: with --const the tours differ.
    if ((opts.constants ?? []).length > 0) continue;
    // The impl layer runs a tour system's unpatched tour (in a shard: that shard of it) only where it has an entry.
    if (manifest && !TOUR_NAMES.every((t) => mutantsFor(manifest, 'impl', t).length >= shard.count)) continue;
    served.set(s.stage, s);
  }
  return { stages, sharded, served };
}

/**
 * Why this part cannot run, or undefined: a sharded stage that another stage serves splits one
 * system's work on its own (conform: one system's tour), so with several such systems and its server
 * not in the run (the impl layer splits every system's unpatched tour) its command would refuse the
 * shard mid-run. Said up front instead, as a usage error. With TLA+ constants the command takes only
 * the systems whose spec has them (often one), and judges that itself.
 */
export function shardRefusal(plan: VerifyPlan, opts: StageOptions, catalogue: readonly Stage[]): string | undefined {
  if (TOUR_NAMES.length < 2 || (opts.constants ?? []).length > 0) return undefined;
  for (const s of servedIn(catalogue)) {
    if (!plan.sharded.includes(s.stage) || plan.served.has(s.stage)) continue;
    return `--shard: the ${s.stage} stage splits one system's work and ${TOUR_NAMES.length} systems have it (${TOUR_NAMES.join(', ')}); run it with ${s.by} at the spec's bounds, which splits them all, or split it per system (fencecheck ${s.stage} --system NAME --shard I/N)`;
  }
  return undefined;
}

/** A sharded stage's part, or undefined for a stage run whole. */
export function stagePart(plan: VerifyPlan, stage: string, shard: Shard): Shard | undefined {
  return plan.sharded.includes(stage) ? shard : undefined;
}

/**
 * A part's mutation matrix: a cell of a sharded layer's stage whose mutant another part runs is
 * `not-selected` (said which part), not `missing` — the part's own verdict judges its own share; the
 * merge judges them all.
 */
export function partMatrix(matrix: MutationMatrix, manifest: MutantManifest, plan: VerifyPlan, shard: Shard, stageOfLayer: Readonly<Record<string, string>>): MutationMatrix {
  if (shard.count === 1) return matrix;
  const rows = matrix.rows.map((row) => {
    const m = manifest.mutants.find((x) => x.id === row.id);
    if (!m) return row;
    const cells = { ...row.cells };
    for (const layer of LAYERS) {
      const stage = stageOfLayer[layer];
      if (stage === undefined || !plan.sharded.includes(stage) || !m.layers[layer] || inMutantShard(m, manifest, layer, shard)) continue;
      const k = Array.from({ length: shard.count }, (_, i) => i + 1).find((index) => inMutantShard(m, manifest, layer, { index, count: shard.count }));
      cells[layer] = { verdict: 'not-selected', stage, reason: `run in part ${k}/${shard.count} (fencecheck merge joins the parts)` };
    }
    return { ...row, cells };
  });
  const layers = matrix.layers;
  return { layers, rows, score: mutationScore({ layers, rows }) };
}
