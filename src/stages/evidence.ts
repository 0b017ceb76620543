/**
 * The evidence stage: every system's committed TLC evidence fresh (the spec's and configs' hashes)
 * and complete (the base run with its state list and graph, one record per tla-layer mutant), and
 * showing every base passing and every mutant killed — no Java needed. `fencecheck evidence` runs
 * this and prints the report.
 */
import { detailsSection } from '../core/details-blocks.js';
import { mutantsFor } from '../core/manifest.js';
import { stageReport, type StageReport } from '../core/stage-report.js';
import { evidenceMutantResults, readBaseGraph } from '../seam/evidence.js';
import { MODEL_NAMES } from '../registry/systems.js';
import { stageManifest } from './manifest.js';
import { tlcModelBlock } from '../tlc/evidence-block.js';

export async function evidenceStage(): Promise<StageReport> {
  const startedAt = new Date();
  // A malformed manifest is bad input, as for every other command: not stale evidence.
  const manifest = stageManifest();
  const bases = MODEL_NAMES.map((system) => ({ system, read: readBaseGraph(system) }));
  const results = evidenceMutantResults(MODEL_NAMES.flatMap((s) => mutantsFor(manifest, 'tla', s)));
  const killed = results.filter((r) => r.verdict === 'killed').length;
  const counts: Record<string, number> = { mutants: results.length, killed };
  const parts: string[] = [];
  const problems: string[] = [];
  let version = '';
  for (const { system, read } of bases) {
    if ('reason' in read) {
      problems.push(`${system} base: ${read.reason}`);
      parts.push(`${system}: ${read.reason}`);
      continue;
    }
    const e = read.evidence;
    version ||= e.tlcVersion;
    if (e.outcome !== 'ok') problems.push(`${system}'s base run's outcome is ${e.outcome}`);
    Object.assign(counts, {
      [`${system}.generated`]: e.generated ?? 0,
      [`${system}.distinct`]: e.distinct ?? 0,
      [`${system}.edges`]: read.graph.edges.length,
      [`${system}.selfLoops`]: read.graph.selfLoops,
      [`${system}.depth`]: e.depth ?? 0,
    });
    parts.push(
      `${system} ${e.generated} generated / ${e.distinct} distinct / ${read.graph.edges.length} edges (${read.graph.selfLoops} self-loops), depth ${e.depth} (spec sha256 ${e.specSha256.slice(0, 12)}…)`,
    );
  }
  problems.push(...results.filter((r) => r.verdict !== 'killed').map((r) => `${r.id} ${r.verdict}${r.reason ? ` (${r.reason})` : ''}`));
  const summary = `TLC evidence ${problems.length === 0 ? 'fresh' : 'checked'}${version ? ` (${version})` : ''}: ${parts.join('; ')}; mutants ${killed}/${results.length} killed`;
  // The TLC figures of every model whose evidence is fresh, for the verify reports' TLC section.
  const tlcModels = bases.flatMap((b) => ('reason' in b.read ? [] : [tlcModelBlock(b.read.evidence, 'evidence')]));
  const status = problems.length === 0 ? 'passed' : 'failed';
  return stageReport({
    stage: 'evidence',
    status,
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    summary,
    counts,
    mutants: results,
    ...(problems.length > 0 && { reason: `the evidence records failures: ${problems.join(', ')}` }),
    details: { tlcModels, sections: [detailsSection({ id: 'stage-evidence', title: 'Stage: evidence', counts })] },
  });
}
