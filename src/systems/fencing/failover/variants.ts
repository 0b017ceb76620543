/**
 * `fencecheck replication --variant`: each variant is a FailoverPatch on the shipped remedy, so
 * there is one way to drop it — `none` is mutant R1's own patch file, the one the impl layer runs.
 */
import { loadFailoverPatch, type FailoverPatch } from './patch.js';

/** The remedy as it ships first; the others are the deliberately broken ones (red). */
export const FAILOVER_VARIANTS = ['wait', 'none', 'wait0'] as const;
export type FailoverVariant = (typeof FAILOVER_VARIANTS)[number];

export const R1_PATCH = 'mutants/fencing/impl/R1.ts';

/** The broken remedy: the same pipeline, WAIT counting no replica (WAIT 0 answers at once). Not a manifest mutant. */
export const WAIT_ZERO: FailoverPatch = { confirm: (c) => c && { ...c, replicas: 0 } };

export function isFailoverVariant(v: string): v is FailoverVariant {
  return (FAILOVER_VARIANTS as readonly string[]).includes(v);
}

/** The patch a variant runs the drill with (undefined: the remedy as it ships). */
export async function variantPatch(v: FailoverVariant): Promise<FailoverPatch | undefined> {
  if (v === 'none') return loadFailoverPatch(R1_PATCH);
  return v === 'wait0' ? WAIT_ZERO : undefined;
}
