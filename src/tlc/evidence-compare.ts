import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MutantResult } from '../core/verdict.js';
import { projectRoot } from '../core/project-root.js';
import { BASE_EVIDENCE, mutantEvidencePath, type RunEvidence } from '../systems/fencing/tlc/evidence.js';

/**
 * Differences between a live TLC run and the committed evidence: what TLC found (outcome, distinct
 * states, depth, the state set, the labelled edge set, verdicts, violated invariants). Generated counts and times are reported, not
 * compared (they depend on the TLC release and the machine).
 */
export function evidenceDifferences(live: RunEvidence, mutants: readonly MutantResult[], root = projectRoot): string[] {
  const diffs: string[] = [];
  const committed = readJson(join(root, BASE_EVIDENCE));
  if (!committed) return [`no committed ${BASE_EVIDENCE}`];
  if (committed.specSha256 !== live.specSha256) diffs.push(`the spec changed since ${BASE_EVIDENCE} was made`);
  for (const k of ['outcome', 'distinct', 'depth'] as const) {
    if (committed[k] !== live[k]) diffs.push(`base ${k}: evidence ${committed[k]}, live ${live[k]}`);
  }
  if (committed.states && live.states && committed.states.sha256 !== live.states.sha256) diffs.push('base reachable state set differs from base.states.txt');
  if (!committed.edges) diffs.push(`${BASE_EVIDENCE} records no labelled edges`);
  else if (!live.edges) diffs.push('the live run produced no labelled state graph');
  else {
    if (committed.edges.count !== live.edges.count) diffs.push(`base edges: evidence ${committed.edges.count}, live ${live.edges.count}`);
    if (committed.edges.selfLoops !== live.edges.selfLoops) diffs.push(`base self-loops: evidence ${committed.edges.selfLoops}, live ${live.edges.selfLoops}`);
    if (committed.edges.canonicalSha256 !== live.edges.canonicalSha256) diffs.push('base labelled edge set differs from base.edges.txt');
  }
  for (const m of mutants) {
    const e = readJson(join(root, mutantEvidencePath(m.id)));
    if (!e) {
      diffs.push(`${m.id}: no committed evidence`);
      continue;
    }
    if (e.verdict !== m.verdict) diffs.push(`${m.id} verdict: evidence ${e.verdict}, live ${m.verdict}`);
    if (e.violated !== m.violated) diffs.push(`${m.id} violated: evidence ${e.violated}, live ${m.violated}`);
  }
  return diffs;
}

/** Human lines for `fencecheck tlc` (without --write-evidence). */
export function compareWithEvidence(live: RunEvidence, mutants: readonly MutantResult[], root = projectRoot): string[] {
  const diffs = evidenceDifferences(live, mutants, root);
  if (diffs.length === 0) return [`matches the committed evidence (${BASE_EVIDENCE}${mutants.length ? ` and ${mutants.length} mutants` : ''})`];
  return ['differs from the committed evidence:', ...diffs.map((d) => `  - ${d}`)];
}

function readJson(path: string): RunEvidence | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as RunEvidence;
  } catch {
    return undefined;
  }
}
