/**
 * `fencecheck tlc --system NAME` for one seam system: the base config (counts, state set), optionally
 * every manifest entry of the system (and its variants, system-check.ts entryVariants), the
 * comparison with the committed evidence, and --write-evidence. Returns the parts of a StageReport;
 * the command assembles and prints it.
 */
import { ExitCode } from '../../core/exit-codes.js';
import type { MutantEntry } from '../../core/manifest.js';
import { allKilled, formatMutantTable } from '../../core/verdict-table.js';
import type { MutantResult } from '../../core/verdict.js';
import type { StageReport } from '../../core/stage-report.js';
import { writeRunReport, writeSystemEvidence, type SystemEvidence } from '../evidence.js';
import type { AnySystem } from '../package.js';
import { baseProblemOf } from './base-outcome.js';
import type { CheckOptions } from './mutant-judge.js';
import { checkSystemBase, checkSystemMutant, entryVariants } from './system-check.js';
import { systemFreshness } from './system-compare.js';

export type ReportPart = Omit<StageReport, 'schema' | 'stage' | 'startedAt' | 'durationMs'>;

export interface SystemPart {
  readonly exit: ExitCode;
  readonly report: ReportPart;
}

export interface SystemRunOptions extends CheckOptions {
  /** The system's manifest entries to run at the tla layer (empty: base only). */
  readonly entries: readonly MutantEntry[];
  readonly mutants: boolean;
  readonly writeEvidence: boolean;
  readonly log: (line: string) => void;
}

import { boundsLabel as bounds } from '../system.js';
import { writeTraceFile } from '../../core/trace-dir.js';
import { tlcModelBlock } from '../../tlc/evidence-block.js';

export async function runSystemTlc(sys: AnySystem, o: SystemRunOptions): Promise<SystemPart> {
  const base = await checkSystemBase(sys, o);
  const e = base.evidence;
  o.log(e.tlcVersion);
  o.log(`${sys.name}: ${e.spec} with ${e.config}: ${bounds(e.bounds)}, invariants ${e.invariants.join(', ')}`);
  if (base.run.kind === 'completed') {
    const r = base.run.result;
    o.log(
      `${sys.name} base: ${r.outcome}; ${r.generated ?? '?'} states generated, ${r.distinct ?? '?'} distinct, depth ${r.depth ?? '?'}, TLC time ${r.durationMs ?? '?'} ms (wall ${base.run.wallMs} ms)`,
    );
  }
  writeRunReport(`${sys.name}/base`, e);
  const problem = baseProblemOf(base.run, `${sys.name}'s base model`);
  if (problem?.exit === ExitCode.Failed && base.trace) o.log(`counterexample: ${base.trace.steps.map((s) => s.action).join(' → ')}`);
  const counts: Record<string, number> = { generated: e.generated ?? 0, distinct: e.distinct ?? 0, depth: e.depth ?? 0 };
  if (problem?.exit === ExitCode.NotRun)
    return { exit: ExitCode.NotRun, report: { status: 'not-run', reason: `${sys.name}: ${problem.reason}`, summary: `${sys.name}: TLC could not check the base config: ${problem.reason}`, counts } };
  if (o.writeEvidence) for (const f of writeSystemEvidence(e, base.graph, base.edgesText)) o.log(`wrote ${f}`);

  const results: MutantResult[] = [];
  const variants: MutantResult[] = [];
  const records: SystemEvidence[] = [];
  const traces: string[] = [];
  if (o.mutants) {
    const runs = o.entries.flatMap((m) => [{ m, variant: false }, ...entryVariants(m, o.root).map((v) => ({ m: v, variant: true }))]);
    for (const { m, variant } of runs) {
      const checked = await checkSystemMutant(sys, m, { ...o, ...(base.graph && { baseStates: base.graph.states }) });
      writeRunReport(`${sys.name}/${m.id}`, checked.evidence);
      // With the run's other counterexamples (verify: <out>/traces/).
      const tracePath = checked.trace ? writeTraceFile(checked.trace, `tla-${m.id}.trace.json`) : undefined;
      if (tracePath) traces.push(tracePath);
      if (o.writeEvidence) for (const f of writeSystemEvidence(checked.evidence)) o.log(`wrote ${f}`);
      records.push(checked.evidence);
      (variant ? variants : results).push({ ...checked.result, ...(tracePath && { tracePath }) });
      o.log(`${m.id}: ${checked.result.verdict}${checked.result.violated ? ` (${checked.result.violated})` : ''}${variant ? ' [variant]' : ''}`);
    }
    o.log('');
    o.log(formatMutantTable([...results, ...variants]));
    counts.killed = results.filter((r) => r.verdict === 'killed').length;
    counts.mutants = results.length;
    if (variants.length > 0) counts.variantsKilled = variants.filter((r) => r.verdict === 'killed').length;
  }

  const freshness = o.writeEvidence ? undefined : systemFreshness({ system: sys.name, base: e, ...(base.graph && { graph: base.graph }), mutants: records }, o.root);
  for (const line of freshness?.lines ?? []) o.log(line);

  const all = [...results, ...variants];
  const mutantsOk = !o.mutants || (results.length === 0 && o.entries.length === 0) || allKilled(all);
  const failed = problem !== undefined || !mutantsOk;
  const reason = problem
    ? `${sys.name}: ${problem.reason}`
    : mutantsOk
      ? undefined
      : `${sys.name}: not killed: ${all
          .filter((r) => r.verdict !== 'killed')
          .map((r) => `${r.id} ${r.verdict}`)
          .join(', ')}`;
  const summary = [
    `${sys.name} base: ${e.outcome}, ${counts.generated} generated / ${counts.distinct} distinct, depth ${counts.depth}`,
    ...(o.mutants ? [`${sys.name} mutants: ${counts.killed}/${counts.mutants} killed${variants.length ? ` (+${counts.variantsKilled}/${variants.length} variants)` : ''}`] : []),
    ...(freshness ? [`evidence ${freshness.fresh ? 'fresh' : 'differs'}`] : []),
  ].join('; ');
  return {
    exit: failed ? ExitCode.Failed : ExitCode.Ok,
    report: {
      status: failed ? 'failed' : 'passed',
      ...(reason !== undefined && { reason }),
      summary,
      counts,
      ...(o.mutants && { mutants: results }),
      ...(traces.length > 0 && { traces }),
      details: {
        system: sys.name,
        tlcVersion: e.tlcVersion,
        // The base run's figures and hashes, for the verify reports' TLC section.
        tlcModels: [tlcModelBlock(e, 'live')],
        ...(freshness && { evidence: freshness.fresh ? 'fresh' : 'differs', differences: freshness.differences }),
        ...(variants.length > 0 && { variants }),
      },
    },
  };
}
