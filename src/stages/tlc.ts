/**
 * The tlc stage: TLC on each system's spec with its base config (and, with mutants, every tla-layer
 * entry of the manifest), each run compared with the committed evidence; the systems' runs combined
 * into one report. `fencecheck tlc` runs this for the project's specs (`--spec` and `--growth` are
 * the command's own).
 */
import { UsageError } from '../core/args.js';
import { mutantsFor } from '../core/manifest.js';
import { readReportDetails } from '../core/report-details.js';
import { StageInputError, type StageIO } from '../core/stage.js';
import { countsPerSystem, stageReport, worstStatus, type StageReport } from '../core/stage-report.js';
import { runSystemTlc, type SystemPart } from '../seam/tlc/system-run.js';
import { TlcOutputError, TlcUnavailableError } from '../tlc/errors.js';
import { locateTlc } from '../tlc/locate.js';
import { SYSTEMS } from '../registry/systems.js';
import { stageManifest } from './manifest.js';

export interface TlcInput {
  /** The systems to check (resolved names). */
  readonly systems: readonly string[];
  /** Also every tla-layer mutant of the manifest. */
  readonly mutants: boolean;
  /** Only these mutants (a system none of whose mutants is named does not run). */
  readonly only?: readonly string[];
  readonly writeEvidence?: boolean;
  /** Per TLC run. */
  readonly timeoutS?: number;
  readonly workers?: number;
}

export async function tlcStage(input: TlcInput, io: StageIO): Promise<StageReport> {
  const stage = input.mutants ? 'tlc-mutants' : 'tlc';
  const startedAt = new Date();
  const report = (r: Omit<StageReport, 'schema' | 'stage' | 'startedAt' | 'durationMs'>) =>
    stageReport({ stage, startedAt: startedAt.toISOString(), durationMs: Date.now() - startedAt.getTime(), ...r });
  const located = locateTlc();
  if (!located.ok) return report({ status: 'not-run', reason: located.reason, summary: `TLC not run: ${located.reason}` });
  const opts = { tools: located.tools, timeoutMs: (input.timeoutS ?? 600) * 1000, workers: input.workers ?? 1 };
  const manifest = stageManifest();
  const only = input.only;
  // Each system's own entries: one system's run never sees another's config.
  const candidates = input.systems.flatMap((name) => mutantsFor(manifest, 'tla', name));
  const pick = (name: string) => candidates.filter((m) => m.system === name && (!only || only.includes(m.id)));
  if (only)
    for (const id of only)
      if (!candidates.some((m) => m.id === id)) throw new UsageError(`unknown mutant '${id}' (tla-layer mutants of ${input.systems.join(', ')}: ${candidates.map((m) => m.id).join(', ')})`);
  try {
    io.log(`TLC: ${located.tools.jar}`);
    // With --only, a system none of whose mutants is named does not run (its 0 of 0 is no kill).
    const run = input.systems.filter((name) => !only || pick(name).length > 0);
    const parts: SystemPart[] = [];
    for (const name of run) {
      if (parts.length > 0) io.log('');
      parts.push(await runSystemTlc(await SYSTEMS[name]!(), { ...opts, entries: pick(name), mutants: input.mutants, writeEvidence: input.writeEvidence ?? false, log: (l) => io.log(l) }));
    }
    return report(mergeParts(parts, run));
  } catch (err) {
    if (err instanceof TlcUnavailableError) return report({ status: 'not-run', reason: err.message, summary: `TLC not run: ${err.message}` });
    if (err instanceof TlcOutputError) throw new StageInputError(`cannot parse TLC output: ${err.message}`);
    throw err;
  }
}

/**
 * One report of several systems' runs: one run is reported as it is; several have the worst
 * status, every mutant and trace, and their counts under `<system>.`.
 */
function mergeParts(parts: readonly SystemPart[], names: readonly string[]): SystemPart['report'] {
  if (parts.length === 1) return parts[0]!.report;
  const status = worstStatus(parts.map((p) => p.report.status));
  const counts = countsPerSystem(parts.map((p, i) => ({ system: names[i]!, counts: p.report.counts })));
  const reasons = parts.filter((p) => p.report.status !== 'passed' && p.report.reason !== undefined).map((p) => p.report.reason!);
  const mutants = parts.flatMap((p) => p.report.mutants ?? []);
  const traces = parts.flatMap((p) => p.report.traces ?? []);
  return {
    status,
    ...(reasons.length > 0 && { reason: reasons.join('; ') }),
    summary: parts.map((p) => p.report.summary).join(' · '),
    counts,
    ...(parts.some((p) => p.report.mutants) && { mutants }),
    ...(traces.length > 0 && { traces }),
    details: {
      systems: Object.fromEntries(parts.map((p, i) => [names[i], { status: p.report.status, summary: p.report.summary, ...(p.report.details !== undefined && { details: p.report.details }) }])),
      // Every system's TLC block, for the verify reports' TLC section.
      tlcModels: parts.flatMap((p) => readReportDetails(p.report.details).tlcModels),
    },
  };
}
