import type { Command } from '../../core/command.js';
import { parseCommandArgs } from '../../core/args.js';
import { ExitCode } from '../../core/exit-codes.js';
import { ManifestError, mutantsFor } from '../../core/manifest.js';
import type { MutantResult } from '../../core/verdict.js';
import { stageReport } from '../../core/stage-report.js';
import { formatMutantTable } from '../../mutants/report-table.js';
import { evidenceMutantResults, readBaseGraph } from '../../seam/evidence.js';
import { loadSystemManifest, MODEL_NAMES } from '../../registry/systems.js';
import { tlcModelBlock } from '../../tlc/evidence-block.js';
import { detailsSection } from '../../core/details-blocks.js';

const HELP = `Usage: fencecheck evidence [--json]

Checks every system's committed TLC evidence (evidence/tlc/<system>/: ${MODEL_NAMES.join(', ')}) without Java:
recomputes the SHA-256 of each spec and of every config, and requires the base run with its state
list (base.states.txt) and its labelled state graph (base.edges.txt: file hashes, counts, self-loops,
the canonical edge hash and TLC's "generated" recomputed), plus one record per tla-layer mutant of
mutants/manifest.json, each with its verdict and trace. Then requires that the evidence shows every
base passing and every mutant killed.

Exit codes: 0 fresh, complete, every base passed and every mutant killed · 1 stale or incomplete
evidence, or evidence of a failure · 3 bad input (a malformed mutants/manifest.json) · 64 usage`;

export const command: Command = {
  name: 'evidence',
  summary: 'check the committed TLC evidence is fresh and complete (no Java needed)',
  help: HELP,
  async run(argv) {
    const { values } = parseCommandArgs(argv, { json: { type: 'boolean', default: false } });
    const startedAt = new Date();
    const out = (status: 'passed' | 'failed', summary: string, extra: { reason?: string; counts?: Record<string, number>; mutants?: MutantResult[]; details?: unknown } = {}) => {
      const report = stageReport({ stage: 'evidence', status, startedAt: startedAt.toISOString(), durationMs: Date.now() - startedAt.getTime(), summary, ...extra });
      if (values.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else {
        process.stdout.write(`${summary}\n`);
        if (extra.mutants) process.stdout.write(`${formatMutantTable(extra.mutants)}\n`);
        if (extra.reason) process.stderr.write(`fencecheck evidence: ${extra.reason}\n`);
      }
      return status === 'passed' ? ExitCode.Ok : ExitCode.Failed;
    };
    let manifest;
    try {
      manifest = loadSystemManifest();
    } catch (err) {
      if (!(err instanceof ManifestError)) throw err;
      // A malformed manifest is bad input, as for every other command: not stale evidence.
      if (values.json) {
        const report = stageReport({
          stage: 'evidence',
          status: 'failed',
          reason: err.message,
          startedAt: startedAt.toISOString(),
          durationMs: Date.now() - startedAt.getTime(),
          summary: 'bad mutant manifest',
        });
        process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      }
      process.stderr.write(`fencecheck evidence: ${err.message}\n`);
      return ExitCode.BadInput;
    }
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
    return out(problems.length === 0 ? 'passed' : 'failed', summary, {
      counts,
      mutants: results,
      ...(problems.length > 0 && { reason: `the evidence records failures: ${problems.join(', ')}` }),
      details: { tlcModels, sections: [detailsSection({ id: 'stage-evidence', title: 'Stage: evidence', counts })] },
    });
  },
};
