import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { projectRoot } from './project-root.js';

/** The layers a mutant can be applied to: the TLA+ spec (TLC), the XState twin, the real code. */
export const LAYERS = ['tla', 'model', 'impl'] as const;
export type Layer = (typeof LAYERS)[number];

/** A system's name (src/registry/systems.ts knows which exist; the manifest is checked against it there). */
export type MutantSystem = string;

export interface MutantEntry {
  readonly id: string;
  readonly system: MutantSystem;
  /** The named guard or effect the mutant removes or changes (the same name at every layer). */
  readonly target: string;
  readonly kind: 'guard' | 'effect';
  readonly description: string;
  readonly realBug: string;
  /** The invariant (or limiter property) that must report the violation. */
  readonly expectedInvariant: string;
  /** Per layer, the file that applies it: a TLC config, or a patch module. Paths from the project root. */
  readonly layers: Partial<Record<Layer, { readonly config?: string; readonly patch?: string }>>;
  /**
   * The bound the mutant is judged at, where its bug lives only off the base config (the limiter
   * disabled, say): TLC-style constants over the system's base ones. Its TLC config sets the same;
   * the model layer explores there; a tour of its patch runs there. Absent: the base config.
   */
  readonly constants?: Readonly<Record<string, string>>;
}

export interface MutantManifest {
  readonly schema: 'fencecheck.mutants/1';
  readonly mutants: readonly MutantEntry[];
}

export class ManifestError extends Error {
  override readonly name = 'ManifestError';
}

export const MANIFEST_PATH = 'mutants/manifest.json';

/** Reads and validates mutants/manifest.json; throws ManifestError naming the first problem. */
export function loadManifest(path = resolve(projectRoot, MANIFEST_PATH), systems?: readonly string[]): MutantManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ManifestError(`cannot read mutant manifest ${path}: ${(err as Error).message}`);
  }
  return validateManifest(raw, path, systems);
}

/** `systems`: the names an entry's system may have (the registry's; omitted: any non-empty name). */
export function validateManifest(raw: unknown, where = MANIFEST_PATH, systems?: readonly string[]): MutantManifest {
  const fail = (msg: string): never => {
    throw new ManifestError(`${where}: ${msg}`);
  };
  if (typeof raw !== 'object' || raw === null) fail('not a JSON object');
  const m = raw as { schema?: unknown; mutants?: unknown };
  if (m.schema !== 'fencecheck.mutants/1') fail(`schema must be "fencecheck.mutants/1", got ${JSON.stringify(m.schema)}`);
  if (!Array.isArray(m.mutants)) fail('"mutants" must be an array');
  const seen = new Set<string>();
  for (const [i, e] of (m.mutants as unknown[]).entries()) {
    const entry = e as Partial<MutantEntry>;
    for (const key of ['id', 'system', 'target', 'kind', 'description', 'realBug', 'expectedInvariant'] as const) {
      if (typeof entry[key] !== 'string' || entry[key] === '') fail(`mutants[${i}].${key} must be a non-empty string`);
    }
    if (seen.has(entry.id!)) fail(`duplicate mutant id ${entry.id}`);
    seen.add(entry.id!);
    if (systems && !systems.includes(entry.system!)) fail(`${entry.id}: system must be one of ${systems.join(', ')}, got ${JSON.stringify(entry.system)}`);
    if (entry.kind !== 'guard' && entry.kind !== 'effect') fail(`${entry.id}: kind must be guard or effect`);
    if (typeof entry.layers !== 'object' || entry.layers === null) fail(`${entry.id}: layers must be an object`);
    if (entry.constants !== undefined) {
      const c = entry.constants as unknown;
      if (typeof c !== 'object' || c === null || Array.isArray(c) || Object.keys(c).length === 0 || !Object.values(c).every((v) => typeof v === 'string' && v !== ''))
        fail(`${entry.id}: constants must be an object of constant names to TLA+ values (non-empty strings)`);
    }
    for (const [layer, how] of Object.entries(entry.layers!)) {
      if (!LAYERS.includes(layer as Layer)) fail(`${entry.id}: unknown layer ${layer}`);
      const h = how as { config?: unknown; patch?: unknown };
      if (typeof h.config !== 'string' && typeof h.patch !== 'string') fail(`${entry.id}.${layer}: needs "config" or "patch"`);
    }
  }
  return m as MutantManifest;
}

/** The entries with a file for `layer`, in manifest order; with `system`, only that system's. */
export function mutantsFor(manifest: MutantManifest, layer: Layer, system?: MutantSystem): MutantEntry[] {
  return manifest.mutants.filter((m) => m.layers[layer] !== undefined && (system === undefined || m.system === system));
}

/**
 * What a layer runner needs of one entry before anything runs: its expected invariant is one the
 * checkers know (`known`, per system) and the layer's config or patch file exists. A problem here is
 * bad input (exit 3), never a mutant verdict; throws ManifestError naming the entry.
 */
export function checkRunnable(entry: MutantEntry, layer: Layer, known: Readonly<Partial<Record<MutantSystem, readonly string[]>>>, root = projectRoot, where = MANIFEST_PATH): void {
  const names = known[entry.system] ?? [];
  if (!names.includes(entry.expectedInvariant))
    throw new ManifestError(`${where}: ${entry.id}: unknown expectedInvariant ${JSON.stringify(entry.expectedInvariant)} (a ${entry.system} mutant expects one of ${names.join(', ')})`);
  const how = entry.layers[layer];
  const file = how?.config ?? how?.patch;
  if (file === undefined) throw new ManifestError(`${where}: ${entry.id}.${layer}: needs "config" or "patch"`);
  let st;
  try {
    st = statSync(resolve(root, file));
  } catch {
    throw new ManifestError(`${where}: ${entry.id}.${layer}: ${how?.config !== undefined ? 'config' : 'patch'} file ${file} does not exist`);
  }
  if (!st.isFile()) throw new ManifestError(`${where}: ${entry.id}.${layer}: ${file} is not a regular file`);
}
