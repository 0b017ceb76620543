import type { Command } from '../../core/command.js';
import { parseCommandArgs } from '../../core/args.js';
import { ExitCode } from '../../core/exit-codes.js';
import type { MutantResult } from '../../core/verdict.js';
import { formatMutantTable } from '../../mutants/report-table.js';
import { stageReport } from '../../core/stage-report.js';
import { loadAllEvidence, RERUN } from '../../systems/fencing/tlc/evidence.js';
import { loadManifest, ManifestError, mutantsFor, type MutantSystem } from '../../core/manifest.js';
import { evidenceMutantResults, readSystemEvidence } from '../../seam/evidence.js';
import { SEAM_TLC_SYSTEMS } from '../../registry/systems.js';
import { tlcModelBlock } from '../../tlc/evidence-block.js';
import { detailsSection } from '../../core/details-blocks.js';

const HELP = `Usage: fencecheck evidence [--json]

Checks the committed TLC evidence (evidence/tlc/fencing/) without Java: recomputes the SHA-256 of
tla/fencing/RedisClusterFencingMigration.tla and of every config, and requires the base run (with its state
dump base.states.txt and its labelled edge list base.edges.txt: file hashes, counts, self-loops and
the canonical edge hash recomputed) plus one result per tla-layer mutant of mutants/manifest.json,
each with its verdict and trace. The same for every other system on the seam (evidence/tlc/<system>/:
${SEAM_TLC_SYSTEMS.join(', ')}): its base record and state list pinned to its spec and config, and one
record per tla-layer mutant of the system. Then requires that the evidence shows every base passing
and every mutant killed.

Exit codes: 0 fresh, complete, base passed and all mutants killed · 1 stale or incomplete evidence,
or evidence of a failure · 3 bad input (a malformed mutants/manifest.json) · 64 usage`;

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

    let all;
    try {
      all = loadAllEvidence();
    } catch (err) {
      if (err instanceof ManifestError) {
        // A malformed manifest is bad input, as for every other command: not stale evidence.
        if (values.json) {
          const report = stageReport({ stage: 'evidence', status: 'failed', reason: err.message, startedAt: startedAt.toISOString(), durationMs: Date.now() - startedAt.getTime(), summary: 'bad mutant manifest' });
          process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
        }
        process.stderr.write(`fencecheck evidence: ${err.message}\n`);
        return ExitCode.BadInput;
      }
      const reason = (err as Error).message;
      return out('failed', reason.startsWith('stale') || reason.startsWith('no TLC') ? reason : `stale TLC evidence: ${RERUN} (${reason})`, { reason });
    }
    const { base, mutants } = all;
    // The seam systems' records (their own folders, their own spec hashes).
    const seamBases = SEAM_TLC_SYSTEMS.map((system) => ({ system, ...readSystemEvidence(system, 'base') }));
    const manifest = loadManifest();
    const seamResults = evidenceMutantResults(SEAM_TLC_SYSTEMS.flatMap((s) => mutantsFor(manifest, 'tla', s as MutantSystem)));
    const fencingResults: MutantResult[] = mutants.map((e) => ({
      id: e.run,
      layer: 'tla',
      verdict: e.verdict!,
      expectedInvariant: e.mutant!.expectedInvariant,
      ...(e.violated !== undefined && { violated: e.violated }),
      ...(e.alsoBroken && { alsoBroken: e.alsoBroken }),
      ...(e.traceLength !== undefined && { traceLength: e.traceLength }),
      tracePath: `evidence/tlc/fencing/${e.run}.json`,
      ...(e.reason !== undefined && { reason: e.reason }),
    }));
    const results = [...fencingResults, ...seamResults];
    const killed = results.filter((r) => r.verdict === 'killed').length;
    const counts = {
      generated: base.generated ?? 0,
      distinct: base.distinct ?? 0,
      edges: base.edges?.count ?? 0,
      selfLoops: base.edges?.selfLoops ?? 0,
      depth: base.depth ?? 0,
      mutants: results.length,
      killed,
      ...Object.fromEntries(seamBases.flatMap((b) => [[`${b.system}.distinct`, b.evidence?.distinct ?? 0], [`${b.system}.generated`, b.evidence?.generated ?? 0]])),
    };
    const summary = `TLC evidence fresh (${base.tlcVersion}; spec sha256 ${base.specSha256.slice(0, 12)}…): base ${base.outcome}, ${counts.generated} generated / ${counts.distinct} distinct / ${counts.edges} labelled edges (${counts.selfLoops} self-loops), depth ${counts.depth}; ${seamBases.map((b) => `${b.system} ${b.evidence?.distinct ?? '?'} distinct`).join(', ')}; mutants ${killed}/${results.length} killed`;
    const problems = [
      ...(base.outcome === 'ok' ? [] : [`the base run's outcome is ${base.outcome}`]),
      ...seamBases.flatMap((b) => (!b.freshness.fresh ? [`${b.system} base: ${b.freshness.reason}`] : b.evidence?.outcome !== 'ok' ? [`${b.system}'s base run's outcome is ${b.evidence?.outcome}`] : [])),
      ...results.filter((r) => r.verdict !== 'killed').map((r) => `${r.id} ${r.verdict}`),
    ];
    // The TLC figures of every model whose evidence is fresh, for the verify reports' TLC section.
    const tlcModels = [tlcModelBlock(base, 'evidence'), ...seamBases.flatMap((b) => (b.evidence && b.freshness.fresh ? [tlcModelBlock(b.evidence, 'evidence')] : []))];
    return out(problems.length === 0 ? 'passed' : 'failed', summary, {
      counts,
      mutants: results,
      details: { tlcModels, sections: [detailsSection({ id: 'stage-evidence', title: 'Stage: evidence', counts })] },
      ...(problems.length > 0 && { reason: `the evidence records failures: ${problems.join(', ')}` }),
    });
  },
};
