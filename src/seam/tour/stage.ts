/**
 * A tour as a StageReport (fencecheck.stage/1): `counts` for the matrix and the verify document,
 * `details` with everything a merge of shards needs (merge.ts) — the shard, the figures, the
 * covered counts, the per-action rows, the model's figures over the shard's states and the whole
 * model's, and both digests (mergeable: digest.ts). The failure's path is given as its length.
 */
import { countsPerSystem, stageReport, worstStatus, type StageReport } from '../../core/stage-report.js';
import type { TourCheckMode, TourResult } from './result.js';
import { headline } from './report.js';
import type { Shard } from './shard.js';
import { conformFigures, conformNotRunDetails, conformReportDetails } from './sections.js';

export interface TourReportFailure {
  readonly check: string;
  readonly message: string;
  readonly attempt?: string;
  readonly real?: string;
  readonly predicted?: string;
  /** States on the path, Init included. */
  readonly path: number;
  /** Merged reports: the shard that found it. */
  readonly shard?: Shard;
}

/** The result as JSON: its figures, the failure with its path's length instead of the path. */
export type TourReportDetails = Omit<TourResult<unknown, unknown, unknown>, 'failure' | 'words'> & {
  readonly failure?: TourReportFailure;
  readonly mutant?: string;
  readonly replay?: string;
  /** A merged report: the shards it was made of. */
  readonly shards?: readonly { readonly index: number; readonly status: string; readonly durationMs: number }[];
};

/** Passed: no check failed and, in conformance mode, the real graph is the model's. */
export function tourPassed(r: { readonly failure: unknown; readonly checks: TourCheckMode; readonly equalToModel: boolean | null }): boolean {
  return r.failure === null && (r.checks.kind === 'invariant' || r.equalToModel === true);
}

export function tourCounts(d: TourReportDetails): Record<string, number> {
  return {
    states: d.covered.states,
    modelStates: d.model.states,
    transitions: d.covered.transitions,
    modelTransitions: d.model.transitions,
    refused: d.covered.refused,
    modelRefused: d.model.refused,
    attempts: d.attempts,
    realStates: d.states,
    tourMs: Math.round(d.durationMs),
  };
}

export function tourDetails(r: TourResult<unknown, unknown, unknown>, extra: { readonly mutant?: string; readonly replay?: string } = {}): TourReportDetails {
  const { failure: f, words: _words, ...figures } = r;
  void _words;
  return {
    ...figures,
    ...(f
      ? {
          failure: {
            check: f.check,
            message: f.message,
            ...(f.attempt !== undefined ? { attempt: f.attempt } : {}),
            ...(f.real !== undefined ? { real: f.real } : {}),
            ...(f.predicted !== undefined ? { predicted: f.predicted } : {}),
            path: f.path.length,
          },
        }
      : {}),
    ...(extra.mutant !== undefined ? { mutant: extra.mutant } : {}),
    ...(extra.replay !== undefined ? { replay: extra.replay } : {}),
  };
}

export interface TourReportMeta {
  readonly stage: string;
  readonly startedAt: Date;
  readonly tracePath?: string;
  readonly replay?: string;
  readonly mutant?: string;
}

export function tourStageReport(r: TourResult<unknown, unknown, unknown>, meta: TourReportMeta): StageReport<TourReportDetails> {
  const passed = tourPassed(r);
  const reason = passed ? undefined : r.failure ? `${r.failure.check}: ${r.failure.message}` : 'the real graph differs from the model';
  // What the verify reports show: the Conformance section and the conform suite.
  const shown = conformReportDetails(conformFigures(r), {
    passed,
    summary: headline(r),
    ...(reason !== undefined ? { reason } : {}),
    ...(meta.tracePath !== undefined ? { tracePath: meta.tracePath } : {}),
    ...(meta.replay !== undefined ? { replay: meta.replay } : {}),
  });
  const details = { ...tourDetails(r, { ...(meta.mutant !== undefined ? { mutant: meta.mutant } : {}), ...(meta.replay !== undefined ? { replay: meta.replay } : {}) }), ...shown };
  return stageReport({
    stage: meta.stage,
    status: passed ? 'passed' : 'failed',
    ...(reason !== undefined ? { reason } : {}),
    startedAt: meta.startedAt.toISOString(),
    durationMs: Date.now() - meta.startedAt.getTime(),
    summary: headline(r),
    counts: tourCounts(details),
    ...(meta.tracePath !== undefined ? { traces: [meta.tracePath] } : {}),
    details,
  });
}

/** A tour that could not run (its real system could not be started): the shard it was to run rides along, so a merge knows which part is missing. */
export function tourNotRunReport(meta: {
  readonly stage: string;
  readonly startedAt: Date;
  readonly reason: string;
  readonly shard: Shard;
  readonly system: string;
}): StageReport<{ readonly system: string; readonly shard: Shard }> {
  return stageReport({
    stage: meta.stage,
    status: 'not-run',
    reason: meta.reason,
    startedAt: meta.startedAt.toISOString(),
    durationMs: Date.now() - meta.startedAt.getTime(),
    summary: `${meta.stage} not run: ${meta.reason}`,
    details: { system: meta.system, shard: meta.shard, ...conformNotRunDetails(meta.reason) },
  });
}

/**
 * Several systems' tours as one stage report (`fencecheck conform` over more than one system): the
 * worst status, each system's counts prefixed with its name, its sections and suites named after it.
 */
export function combinedTourReport(stage: string, startedAt: Date, parts: readonly { readonly system: string; readonly report: StageReport }[]): StageReport {
  const status = worstStatus(parts.map((p) => p.report.status));
  const reasons = parts.filter((p) => p.report.reason !== undefined).map((p) => `${p.system}: ${p.report.reason}`);
  const counts = countsPerSystem(parts.map((p) => ({ system: p.system, counts: p.report.counts })));
  const shown = parts.map(({ system, report }) => {
    const d = (report.details ?? {}) as { sections?: readonly { id: string; title: string }[]; suites?: readonly { name: string }[] };
    return {
      system,
      details: report.details,
      sections: (d.sections ?? []).map((s) => ({ ...s, id: `${s.id}-${system}`, title: `${s.title}: ${system}` })),
      suites: (d.suites ?? []).map((s) => ({ ...s, name: `${s.name}.${system}` })),
    };
  });
  const traces = parts.flatMap((p) => p.report.traces ?? []);
  return stageReport({
    stage,
    status,
    ...(reasons.length > 0 ? { reason: reasons.join('; ') } : {}),
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    summary: parts.map((p) => `${p.system}: ${p.report.summary}`).join('; '),
    counts,
    ...(traces.length > 0 ? { traces } : {}),
    details: { systems: shown.map(({ system, details }) => ({ system, details })), sections: shown.flatMap((s) => s.sections), suites: shown.flatMap((s) => s.suites) },
  });
}
