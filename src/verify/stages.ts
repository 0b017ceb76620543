/**
 * The stages `fencecheck verify` runs, in start order: verify's own (src/stages/catalogue.ts) and
 * each system package's, all stage objects (src/core/stage.ts). Each runs as
 * `node bin/fencecheck.mjs stage NAME [its options] --json` in its own process group.
 */
import type { Layer } from '../core/manifest.js';
import type { Stage } from '../core/stage.js';
import { PACKAGES } from '../registry/systems.js';
import { FIRST, LAST } from '../stages/catalogue.js';

export { TOPOLOGIES, type Topology, type StageOptions } from '../core/stage-spec.js';
export type { Stage } from '../core/stage.js';

/** In start order: the longest stages first, so two slots finish together rather than one idling. */
export const STAGES: readonly Stage[] = [...FIRST, ...PACKAGES.flatMap((p) => p.stages ?? []), ...LAST];

export const STAGE_NAMES: readonly string[] = STAGES.map((s) => s.name);

export function isStageName(s: string): boolean {
  return STAGE_NAMES.includes(s);
}

export function stageObject(name: string): Stage | undefined {
  return STAGES.find((s) => s.name === name);
}

/** The stage that reports each mutant layer. */
export const STAGE_OF_LAYER: Readonly<Record<Layer, string>> = {
  tla: 'tlc',
  model: 'mutants:model',
  impl: 'mutants:impl',
};

/** Where a layer's verdicts come from when its own stage did not run: TLC's from the committed evidence. */
export const FALLBACK_OF_LAYER: Partial<Readonly<Record<Layer, string>>> = { tla: 'evidence' };
