/**
 * The stages `fencecheck verify` runs, the command behind each, and which verify options it takes.
 * Each runs as `node bin/fencecheck.mjs <argv> --json` in its own process group.
 */
import type { Layer } from '../core/manifest.js';

import type { StageOptions, Topology } from '../core/stage-spec.js';
export { TOPOLOGIES, type Topology, type StageOptions, type StageSpec } from '../core/stage-spec.js';

import { PACKAGES } from '../registry/systems.js';
import type { StageSpec as Spec } from '../core/stage-spec.js';

/** verify's own stages, over every system; the systems' own stages come from their packages. */
const GENERIC: Readonly<Record<'first' | 'last', readonly Spec[]>> = {
  first: [
    {
      name: 'tlc',
      argv: ['tlc', '--mutants', '--system', 'all'],
      forwards: [],
      heavy: true,
      layer: 'tla',
      what: "TLC on every system's base config and mutant configs, compared with its committed evidence in evidence/tlc/<system>/ (needs Java + tla2tools.jar)",
    },
    {
      name: 'mutants:impl',
      argv: ['mutants', '--layer', 'impl'],
      forwards: [],
      heavy: true,
      layer: 'impl',
      recordsTraces: true,
      shardable: true,
      what: 'every mutant applied to the real code of its system and killed there by its expected invariant (the tour, the drills, the property runs)',
    },
  ],
  last: [
    {
      name: 'conform',
      argv: ['conform', '--gate'],
      forwards: ['constants'],
      heavy: true,
      shardable: true,
      what: "exhaustive conformance tour of every system with one: every model transition and refused attempt executed on the real code (where a system's whole graph takes minutes, at the gate bound its tour declares)",
    },
    { name: 'explore', argv: ['explore'], forwards: ['constants'], heavy: true, what: 'exhaustive exploration of the XState machine, every invariant on every state' },
    {
      name: 'mutants:model',
      argv: ['mutants', '--layer', 'model'],
      forwards: [],
      heavy: true,
      layer: 'model',
      what: "every mutant applied to its system's XState machine, killed by exhaustive exploration",
    },
    { name: 'parity', argv: ['parity'], forwards: [], heavy: true, what: "machine reachable states and labelled edges equal to TLC's state graph" },
    { name: 'evidence', argv: ['evidence'], forwards: [], heavy: false, what: 'committed TLC evidence of every system complete and not stale (no Java needed)' },
    { name: 'systems', argv: ['systems'], forwards: [], heavy: false, what: "every system's twin explored, its state set equal to TLC's, every mutant killed as TLC kills it" },
    { name: 'lua-check', argv: ['lua-check'], forwards: [], heavy: false, what: "every key the project's Lua scripts touch is declared in KEYS (key positions from Valkey 8's key specs)" },
    {
      name: 'tracecheck',
      argv: ['tracecheck', '--observed'],
      forwards: [],
      heavy: true,
      afterRecorders: true,
      sameToolAs: 'tlc',
      what: "TLC judges the observed behaviour of this verify's own sampled runs (property runs, walks, drills, the impl layer's counterexamples) against each system's spec: unpatched runs accepted, each mutant's run rejected at the step its run predicts (needs Java + tla2tools.jar)",
    },
  ],
};

/** In start order: the longest stages first, so two slots finish together rather than one idling. */
export const STAGES: readonly Spec[] = [...GENERIC.first, ...PACKAGES.flatMap((p) => p.stages ?? []), ...GENERIC.last];

export const STAGE_NAMES: readonly string[] = STAGES.map((s) => s.name);

export function isStageName(s: string): boolean {
  return STAGE_NAMES.includes(s);
}

export function stageSpec(name: string): Spec | undefined {
  return STAGES.find((s) => s.name === name);
}

const FLAG: Readonly<Record<keyof StageOptions, string>> = { runs: '--runs', seed: '--seed', topology: '--topology', constants: '--const' };

/** The full argv of a stage's child process (after `bin/fencecheck.mjs`). */
export function stageArgv(spec: Spec, opts: StageOptions): string[] {
  const argv = [...spec.argv];
  for (const key of spec.forwards) {
    const v = opts[key];
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const x of v as readonly string[]) argv.push(FLAG[key], x);
    else argv.push(FLAG[key], key === 'topology' ? (spec.topologyNames?.[v as Topology] ?? String(v)) : String(v));
  }
  argv.push('--json');
  return argv;
}

/** The stage that reports each mutant layer. */
export const STAGE_OF_LAYER: Readonly<Record<Layer, string>> = {
  tla: 'tlc',
  model: 'mutants:model',
  impl: 'mutants:impl',
};

/** Where a layer's verdicts come from when its own stage did not run: TLC's from the committed evidence. */
export const FALLBACK_OF_LAYER: Partial<Readonly<Record<Layer, string>>> = { tla: 'evidence' };
