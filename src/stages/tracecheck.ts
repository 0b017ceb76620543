/**
 * The tracecheck stage: TLC judges observed traces of the real code — each accepted, or rejected at
 * the first step the spec cannot explain — against what each trace's run predicted. verify's runs
 * it on the traces this run's recording stages saved; `fencecheck tracecheck` on any.
 */
import { readFileSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import { projectRoot } from '../core/project-root.js';
import { StageInputError, type StageIO } from '../core/stage.js';
import { stageReport, type StageReport, type StageStatus } from '../core/stage-report.js';
import { renderTable } from '../core/table.js';
import type { ReportBlock, ReportSection, ReportSuite } from '../core/report-details.js';
import { TlcUnavailableError } from '../core/tlc-errors.js';
import { checkTraces, isBadInput, TraceCheckRunError, validateTraces, type TraceCheckResult, type TraceVerdict } from '../seam/tracecheck/check.js';
import { ObservedTraceError, parseObservedText, type ObservedTrace } from '../seam/tracecheck/format.js';
import { observedDir, observedFiles } from '../seam/tracecheck/store.js';
import type { TraceTarget } from '../seam/tracecheck/target.js';
import { locateTlc } from '../tlc/locate.js';
import { MODEL_NAMES, SYSTEMS, systemEntry } from '../registry/systems.js';

export interface TracecheckInput {
  /** Observed trace files. */
  readonly files?: readonly string[];
  /** Also every trace the recording stages saved (src/seam/tracecheck/store.ts). */
  readonly observed?: boolean;
  /** Only these systems' traces. */
  readonly systems?: readonly string[];
  readonly timeoutMs?: number;
}

export async function tracecheckStage(input: TracecheckInput, io: StageIO): Promise<StageReport> {
  const timeoutMs = input.timeoutMs ?? 600_000;
  const startedAt = new Date();
  const emit = (status: StageStatus, summary: string, extra: { reason?: string; counts?: Record<string, number>; details?: unknown } = {}) =>
    stageReport({ stage: 'tracecheck', status, startedAt: startedAt.toISOString(), durationMs: Date.now() - startedAt.getTime(), summary, ...extra });
  const badInput = (message: string): never => {
    throw new StageInputError(message);
  };
  const files = [...(input.files ?? []), ...(input.observed ? observedFiles() : [])];
  const traces: ObservedTrace[] = [];
  try {
    for (const f of files) {
      let text: string;
      try {
        // A FIFO would block the read: only regular files are traces.
        if (!statSync(f).isFile()) throw new ObservedTraceError(`${f}: cannot read: not a regular file`);
        text = readFileSync(f, 'utf8');
      } catch (err) {
        if (err instanceof ObservedTraceError) throw err;
        throw new ObservedTraceError(`${f}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
      }
      traces.push(...parseObservedText(text, relative(projectRoot, f) || f));
    }
  } catch (err) {
    if (err instanceof ObservedTraceError) badInput(err.message);
    throw err;
  }
  const chosen = input.systems ? traces.filter((t) => input.systems!.includes(t.system)) : traces;
  const unknown = chosen.find((t) => !MODEL_NAMES.includes(t.system));
  if (unknown) badInput(`trace ${unknown.id ?? unknown.source}: unknown system '${unknown.system}' (one of ${MODEL_NAMES.join(', ')})`);
  if (chosen.length === 0) {
    const where = input.observed && (input.files ?? []).length === 0 ? ` in ${relative(projectRoot, observedDir()) || observedDir()}` : '';
    return emit('not-run', 'no traces to check', { reason: `no observed traces${where}${input.systems ? ` of ${input.systems.join(', ')}` : ''}` });
  }
  const targets = new Map<string, TraceTarget>();
  for (const s of new Set(chosen.map((t) => t.system))) targets.set(s, traceTarget(s, await SYSTEMS[s]!()));
  try {
    validateTraces(chosen, (s) => targets.get(s)!);
  } catch (err) {
    if (isBadInput(err)) badInput((err as Error).message);
    throw err;
  }
  const located = locateTlc();
  if (!located.ok) {
    return emit('not-run', `${chosen.length} traces not checked`, { reason: located.reason });
  }
  let result: TraceCheckResult;
  try {
    result = await checkTraces(chosen, (s) => targets.get(s)!, { tools: located.tools, timeoutMs, log: (l) => io.log(l) });
  } catch (err) {
    if (isBadInput(err)) badInput((err as Error).message);
    if (err instanceof TraceCheckRunError || err instanceof TlcUnavailableError) {
      return emit('not-run', `${chosen.length} traces not checked`, { reason: err.message });
    }
    throw err;
  }
  const off = result.verdicts.filter((v) => !v.asPredicted);
  const rejected = result.verdicts.filter((v) => !v.accepted).length;
  const counts = {
    files: files.length,
    traces: result.traces,
    steps: result.steps,
    accepted: result.traces - rejected,
    rejected,
    asPredicted: result.traces - off.length,
    notAsPredicted: off.length,
    tlcMs: result.tlcWallMs,
    stepsPerSecond: result.stepsPerSecond,
  };
  const details = {
    ...reportParts(result, counts),
    batches: result.batches,
    verdicts: result.verdicts.map((v) => ({
      system: v.trace.system,
      source: v.trace.source,
      ...(v.trace.id !== undefined && { id: v.trace.id }),
      ...(v.trace.mutant !== undefined && { mutant: v.trace.mutant }),
      steps: v.steps,
      accepted: v.accepted,
      ...(v.rejection && { rejectedAt: v.rejection.step, claimed: v.rejection.claimed, reason: v.rejection.reason, disagree: v.rejection.disagree }),
      predicted: v.trace.predicted ?? null,
      asPredicted: v.asPredicted,
      ...(v.trace.replay !== undefined && { replay: v.trace.replay }),
    })),
  };
  const status: StageStatus = off.length === 0 ? 'passed' : 'failed';
  const summary = summaryOf(result);
  const shown = result.verdicts.filter((v) => !v.accepted || !v.asPredicted);
  if (shown.length > 0) io.log(renderTable(['trace', 'steps', 'TLC', 'expected', 'why'], shown.map(verdictLine)));
  for (const v of off) if (v.trace.replay) io.log(`  replay ${v.trace.id ?? v.trace.source}: ${v.trace.replay}`);
  return emit(status, summary, {
    counts,
    details,
    ...(status === 'failed' && {
      reason: `not as predicted: ${off
        .slice(0, 5)
        .map((v) => `${v.trace.id ?? v.trace.source} ${v.accepted ? 'accepted' : `rejected at step ${v.rejection!.step}`}`)
        .join('; ')}`,
    }),
  });
}

function traceTarget(system: string, sys: Awaited<ReturnType<(typeof SYSTEMS)[string]>>): TraceTarget {
  const v = systemEntry(system)?.traceValidation ?? {};
  return { system, spec: sys.spec, config: sys.config, variables: sys.variables, ...v };
}

function verdictLine(v: TraceVerdict): string[] {
  const t = v.trace;
  const what = `${t.system} ${t.id ?? t.source}${t.mutant ? ` [${t.mutant}]` : ''}`;
  const verdict = v.accepted ? 'accepted' : `rejected at step ${v.rejection!.step}`;
  const predicted = t.predicted?.step ?? null;
  const expectation = v.asPredicted ? 'as predicted' : predicted === null ? 'predicted: accepted' : `predicted: rejected at step ${predicted}`;
  return [what, String(v.steps), verdict, expectation, v.rejection?.reason ?? ''];
}

const verdictText = (v: TraceVerdict) => (v.accepted ? 'accepted' : `rejected at step ${v.rejection!.step}`);
const predictedText = (v: TraceVerdict) => ((v.trace.predicted?.step ?? null) === null ? 'accepted' : `rejected at step ${v.trace.predicted!.step}`);

/** What verify's reports show of the stage: the figures, every rejected or unexpected trace, the TLC runs; one JUnit case per trace. */
function reportParts(r: TraceCheckResult, counts: Readonly<Record<string, number>>): { sections: ReportSection[]; suites: ReportSuite[] } {
  const shown = r.verdicts.filter((v) => !v.accepted || !v.asPredicted);
  const blocks: ReportBlock[] = [
    { kind: 'kv', rows: Object.entries(counts).map(([k, v]) => [k, String(v)] as const) },
    ...(shown.length > 0
      ? [
          { kind: 'heading', text: 'Rejected, or not as predicted' } as ReportBlock,
          {
            kind: 'table',
            columns: ['trace', 'steps', 'TLC', 'predicted', 'why'],
            rows: shown.map((v) =>
              [`${v.trace.system} ${v.trace.id ?? v.trace.source}${v.trace.mutant ? ` [${v.trace.mutant}]` : ''}`, String(v.steps), verdictText(v), predictedText(v), v.rejection?.reason ?? ''].map(
                (text, i) => ({ text, ...(i === 2 && { tone: (v.asPredicted ? 'ok' : 'bad') as 'ok' | 'bad' }) }),
              ),
            ),
          } as ReportBlock,
        ]
      : []),
    { kind: 'heading', text: 'TLC runs' },
    {
      kind: 'table',
      columns: ['system', 'traces', 'steps', 'TLC (s)', 'states', 'diagnosis (s)'],
      rows: r.batches.map((b) =>
        [b.system, String(b.traces), String(b.steps), (b.tlcWallMs / 1000).toFixed(1), String(b.distinct ?? ''), b.diagnosisWallMs === undefined ? '' : (b.diagnosisWallMs / 1000).toFixed(1)].map(
          (text) => ({ text }),
        ),
      ),
    },
  ];
  const section: ReportSection = {
    id: 'stage-tracecheck',
    title: 'Stage: tracecheck',
    intro: "TLC judged the observed behaviour of the sampled runs against each system's spec: accepted, or rejected at the first step the spec cannot explain.",
    blocks,
  };
  const seen = new Map<string, number>();
  const caseName = (v: TraceVerdict) => {
    const base = `${v.trace.system} ${v.trace.id ?? v.trace.source}${v.trace.mutant ? ` [${v.trace.mutant}]` : ''}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base} #${n}`;
  };
  const suite: ReportSuite = {
    name: 'tracecheck',
    cases: r.verdicts.map((v) => ({
      name: caseName(v),
      status: v.asPredicted ? 'passed' : 'failed',
      ...(!v.asPredicted && {
        message: `${verdictText(v)}; predicted: ${predictedText(v)}`,
        body: [v.rejection?.reason ?? 'accepted', ...(v.trace.replay ? [`replay: ${v.trace.replay}`] : [])].join('\n'),
      }),
    })),
  };
  return { sections: [section], suites: [suite] };
}

function summaryOf(r: TraceCheckResult): string {
  const rejected = r.verdicts.filter((v) => !v.accepted).length;
  const off = r.verdicts.filter((v) => !v.asPredicted).length;
  return `${r.traces} traces, ${r.steps} steps: ${r.traces - rejected} accepted, ${rejected} rejected; ${off === 0 ? 'every verdict as predicted' : `${off} not as predicted`}; TLC ${(r.tlcWallMs / 1000).toFixed(1)} s (${r.stepsPerSecond} steps/s)`;
}
