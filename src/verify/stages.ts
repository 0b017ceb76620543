/**
 * The stages `fencecheck verify` runs, the command behind each, and which verify options it takes.
 * Each runs as `node bin/fencecheck.mjs <argv> --json` in its own process group.
 */
import type { Layer } from '../core/manifest.js';

export const STAGE_NAMES = ['tlc', 'evidence', 'explore', 'parity', 'conform', 'props', 'limiter', 'mutants:model', 'mutants:impl', 'mutants:limiter', 'lua-check', 'g2', 'systems', 'pause'] as const;
export type StageName = (typeof STAGE_NAMES)[number];

/** verify's --topology values: the standalone node, the cluster (props: the runs crossing the door onto it), both. */
export const TOPOLOGIES = ['standalone', 'cluster', 'both'] as const;
export type Topology = (typeof TOPOLOGIES)[number];

/** Options verify forwards to the stages that take them. */
export interface StageOptions {
  readonly runs?: number;
  readonly seed?: number;
  readonly topology?: Topology;
  /** Model bounds for exploration (TLC and parity keep the bounds of the spec's config). */
  readonly pods?: number;
  readonly maxGen?: number;
}

const FLAG: Readonly<Record<keyof StageOptions, string>> = { runs: '--runs', seed: '--seed', topology: '--topology', pods: '--pods', maxGen: '--max-gen' };

type Forwarded = keyof StageOptions;

export interface StageSpec {
  readonly name: string;
  /** The fencecheck command line, without `--json` and without forwarded options. */
  readonly argv: readonly string[];
  /** Which verify options this command accepts. */
  readonly forwards: readonly Forwarded[];
  /** The command's name for a verify topology, where it differs (props calls the cluster run `door`). */
  readonly topologyNames?: Readonly<Partial<Record<Topology, string>>>;
  /** Heavy stages (CPU, Valkey, Java) take one of the `--jobs` slots; light ones run alongside. */
  readonly heavy: boolean;
  /** The mutant layer whose results this stage reports, if any. */
  readonly layer?: Layer;
  /** One line for docs and the report. */
  readonly what: string;
}

/** In start order: the longest stages first, so two slots finish together rather than one idling. */
export const STAGES: readonly StageSpec[] = [
  { name: 'tlc', argv: ['tlc', '--mutants', '--system', 'all'], forwards: [], heavy: true, layer: 'tla', what: 'TLC on the base config and every mutant config of fencing and of each seam system (pause, replication), the seam systems\' runs compared with evidence/tlc/<system>/ (needs Java + tla2tools.jar)' },
  { name: 'mutants:impl', argv: ['mutants', '--layer', 'impl'], forwards: [], heavy: true, layer: 'impl', what: 'M1–M9 applied to the Lua scripts and the gate, each killed in its real state graph on Valkey (no seed); P1–P6 and R1 on the pause snapshot and the failover drill (their runners)' },
  { name: 'props', argv: ['props'], forwards: ['runs', 'seed', 'topology'], topologyNames: { cluster: 'door' }, heavy: true, what: 'model-based runs of the real scripts on Valkey, T1/T2/T3 on the real keyspace' },
  { name: 'conform', argv: ['conform'], forwards: ['pods', 'maxGen'], heavy: true, what: 'exhaustive conformance tour: every model transition and refused attempt executed on real Valkey' },
  { name: 'limiter', argv: ['limiter'], forwards: ['runs', 'seed', 'topology'], heavy: true, what: 'limiter script against its reference model and the required invariant tests' },
  { name: 'mutants:limiter', argv: ['mutants', '--layer', 'limiter'], forwards: ['runs', 'seed'], heavy: true, layer: 'limiter', what: 'L1–L6 applied to the limiter, killed by its properties' },
  { name: 'explore', argv: ['explore'], forwards: ['pods', 'maxGen'], heavy: true, what: 'exhaustive exploration of the XState machine, every invariant on every state' },
  { name: 'mutants:model', argv: ['mutants', '--layer', 'model'], forwards: [], heavy: true, layer: 'model', what: 'M1–M9, P1–P6 and R1 applied to their XState machines, killed by exhaustive exploration' },
  { name: 'parity', argv: ['parity'], forwards: [], heavy: true, what: 'machine reachable states and labelled edges equal to TLC\'s state graph' },
  { name: 'evidence', argv: ['evidence'], forwards: [], heavy: false, what: 'committed TLC evidence of every system complete and not stale (no Java needed)' },
  { name: 'g2', argv: ['g2'], forwards: [], heavy: true, what: 'cluster client matrix on real multi-shard Valkey: registry discovery, sharded pub/sub, presence MGET, routing + ACL, replica repair and primary failover drills; errors and silently-wrong verdicts per row' },
  { name: 'pause', argv: ['pause', '--topology', 'cluster'], forwards: ['seed'], heavy: true, what: 'the pause snapshot on a real 3-shard cluster: seeded walks of its twin with dropped, delayed and reordered events, failed writes and late starts; the spec\'s invariants on the real replicas and keyspace, and the share of the twin covered' },
  { name: 'systems', argv: ['systems'], forwards: [], heavy: false, what: 'every system on the seam (fencing, pause snapshot, failover): twin explored, state set equal to TLC\'s, every mutant killed as TLC kills it' },
  { name: 'lua-check', argv: ['lua-check'], forwards: [], heavy: false, what: 'every key the project\'s Lua scripts touch is declared in KEYS (key positions from Valkey 8\'s key specs)' },
];

export function stageSpec(name: string): StageSpec | undefined {
  return STAGES.find((s) => s.name === name);
}

export function isStageName(s: string): s is StageName {
  return (STAGE_NAMES as readonly string[]).includes(s);
}

/** The full argv of a stage's child process (after `bin/fencecheck.mjs`). */
export function stageArgv(spec: StageSpec, opts: StageOptions): string[] {
  const argv = [...spec.argv];
  for (const key of spec.forwards) {
    const v = opts[key];
    if (v === undefined) continue;
    argv.push(FLAG[key], key === 'topology' ? (spec.topologyNames?.[v as Topology] ?? String(v)) : String(v));
  }
  argv.push('--json');
  return argv;
}

/** The stage that reports each mutant layer. */
export const STAGE_OF_LAYER: Readonly<Record<Layer, StageName>> = {
  tla: 'tlc',
  model: 'mutants:model',
  impl: 'mutants:impl',
  limiter: 'mutants:limiter',
};

/** Where a layer's verdicts come from when its own stage did not run: TLC's from the committed evidence. */
export const FALLBACK_OF_LAYER: Partial<Readonly<Record<Layer, StageName>>> = { tla: 'evidence' };
