/**
 * A live TLC run of a seam system against its committed evidence (evidence/tlc/<system>/): the same
 * outcome and counts (generated, distinct, depth), the dumped state set equal to base.states.txt
 * (both through the system's own mapping), and each mutant's outcome, violated invariant and trace
 * length. Times, timestamps and the TLC version line are reported, not compared.
 */
import { projectRoot } from '../../core/project-root.js';
import { compareGraphs } from '../parity.js';
import { readBaseGraph, readSystemEvidence, systemEvidencePath, type SystemEvidence } from '../evidence.js';
import type { StateGraph } from './graph.js';

export interface LiveSystemRun {
  readonly system: string;
  readonly base: SystemEvidence;
  readonly graph?: StateGraph;
  /** Mutant (and variant) records of this run. */
  readonly mutants: readonly SystemEvidence[];
}

const COUNTS = ['outcome', 'generated', 'distinct', 'depth'] as const;

function recordDifferences(live: SystemEvidence, root: string, extra: readonly ('violated' | 'traceLength')[]): string[] {
  const rel = systemEvidencePath(live.system, live.run);
  const { evidence, freshness } = readSystemEvidence(live.system, live.run, root);
  if (!evidence) return [`no committed ${rel}`];
  const diffs = freshness.fresh ? [] : [`${rel}: ${freshness.reason}`];
  for (const k of [...COUNTS, ...extra]) if (evidence[k] !== live[k]) diffs.push(`${live.run} ${k}: evidence ${evidence[k] ?? '-'}, live ${live[k] ?? '-'}`);
  return diffs;
}

/** Every difference, in words; empty when the run reproduces the evidence. */
export function systemEvidenceDifferences(live: LiveSystemRun, root = projectRoot): string[] {
  const diffs = recordDifferences(live.base, root, []);
  if (live.graph) {
    const committed = readBaseGraph(live.system, root);
    if ('reason' in committed) diffs.push(`the committed base graph: ${committed.reason}`);
    else {
      const p = compareGraphs(live.graph, committed.graph);
      if (!p.states.equal)
        diffs.push(
          `base state set differs: ${p.states.onlyModelCount} only live (${p.states.onlyModel.slice(0, 2).join(' · ') || '-'}), ${p.states.onlyTlcCount} only committed (${p.states.onlyTlc.slice(0, 2).join(' · ') || '-'})`,
        );
      if (!p.edges.equal)
        diffs.push(
          `base edges differ: ${p.edges.onlyModelCount} only live (${p.edges.onlyModel.slice(0, 2).join(' · ') || '-'}), ${p.edges.onlyTlcCount} only committed (${p.edges.onlyTlc.slice(0, 2).join(' · ') || '-'})`,
        );
    }
  }
  for (const m of live.mutants) diffs.push(...recordDifferences(m, root, ['violated', 'traceLength']));
  return diffs;
}

/** "fresh" with what was compared, or "differs" and each difference. */
export function systemFreshness(live: LiveSystemRun, root = projectRoot): { readonly fresh: boolean; readonly lines: string[]; readonly differences: string[] } {
  const differences = systemEvidenceDifferences(live, root);
  const what = `evidence/tlc/${live.system}/: base${live.graph ? ` with ${live.graph.states.length} states and ${live.graph.edges.length} edges` : ''}${live.mutants.length ? ` and ${live.mutants.length} mutant runs` : ''}`;
  return differences.length === 0
    ? { fresh: true, lines: [`fresh: the run reproduces ${what}`], differences }
    : { fresh: false, lines: [`differs from ${what}:`, ...differences.map((d) => `  - ${d}`)], differences };
}
