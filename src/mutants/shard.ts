/**
 * A shard of a mutant layer (`mutants --layer impl --shard i/n`): each system's entries of the layer,
 * in manifest order, dealt round-robin to the n shards (entry k of a system to shard k mod n + 1).
 * Dealt per system so every shard gets its share of each system's unpatched run and mutants;
 * computed from the manifest, not from the selection, so a shard of a shard (a worker given the
 * shard's ids and the same --shard) keeps every one of them.
 */
import { mutantsFor, type Layer, type MutantEntry, type MutantManifest } from '../core/manifest.js';
import type { Shard } from '../seam/tour/shard.js';

export function inMutantShard(m: MutantEntry, manifest: MutantManifest, layer: Layer, shard: Shard): boolean {
  if (shard.count === 1) return true;
  const k = mutantsFor(manifest, layer, m.system).findIndex((x) => x.id === m.id);
  return k >= 0 && k % shard.count === shard.index - 1;
}

/** The fewest entries any one system has in the layer: with at most that many shards, every shard gets some of every system. */
export function fewestPerSystem(manifest: MutantManifest, layer: Layer, systems: readonly string[]): number {
  return Math.min(...systems.map((s) => mutantsFor(manifest, layer, s).length));
}
