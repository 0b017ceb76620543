/**
 * Fencing's committed TLC evidence as the seam reads a system's (src/seam/evidence.ts
 * readSystemEvidence): fencing's records stay where they were written (evidence/tlc/fencing/base.json,
 * evidence/tlc/fencing/Mx.json, not evidence/tlc/fencing/) and carry no `system` field, so the seam cannot
 * read them by its own path rule. Freshness is fencing's own rule (src/systems/fencing/tlc/evidence.ts
 * loadAllEvidence: base, state list, edges and every manifest mutant, pinned to spec and config
 * hashes), all or nothing, as the fencing layers have always judged it.
 */
import { projectRoot } from '../../core/project-root.js';
import type { Freshness, SystemEvidence } from '../../seam/evidence.js';
import { loadAllEvidence } from './tlc/evidence.js';

/** The record of one fencing run (`base` or a mutant id) in the seam's shape, or why it cannot be used. */
export function readFencingSystemEvidence(run: string, root = projectRoot): { evidence?: SystemEvidence; freshness: Freshness } {
  let all: ReturnType<typeof loadAllEvidence>;
  try {
    all = loadAllEvidence(root);
  } catch (err) {
    return { freshness: { fresh: false, reason: (err as Error).message } };
  }
  const e = run === 'base' ? all.base : all.mutants.find((m) => m.run === run);
  if (!e) return { freshness: { fresh: false, reason: `no fencing evidence for ${run} (evidence/tlc/fencing/${run}.json is not a manifest mutant's)` } };
  return { evidence: { ...e, system: 'fencing' }, freshness: { fresh: true } };
}
