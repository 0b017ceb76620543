import { renderTable } from './table.js';
import type { MutantResult } from './verdict.js';

/** The plain-text table `fencecheck mutants` and `fencecheck tlc --mutants` print. */
export function formatMutantTable(results: readonly MutantResult[]): string {
  const header = ['mutant', 'layer', 'verdict', 'expected', 'violated', 'also broken', 'trace', 'replay / reason'];
  const rows = results.map((r) => [
    r.id,
    r.layer,
    r.verdict,
    r.expectedInvariant,
    r.violated ?? '-',
    r.alsoBroken && r.alsoBroken.length > 0 ? r.alsoBroken.join(',') : '-',
    r.traceLength !== undefined ? `${r.traceLength} steps` : '-',
    r.verdict === 'killed'
      ? (r.replay !== undefined ? [r.replay, r.tracePath ?? ''] : [r.seed !== undefined ? `seed=${r.seed}` : '', r.path ? `path=${r.path}` : '', r.tracePath ?? '']).filter(Boolean).join(' ') || '-'
      : (r.reason ?? '-'),
  ]);
  return renderTable(header, rows);
}

/** Exit-code verdict of a set of results: every mutant must be killed (equivalent is reported, not a kill). */
export function allKilled(results: readonly MutantResult[]): boolean {
  return results.length > 0 && results.every((r) => r.verdict === 'killed');
}
