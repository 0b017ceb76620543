import { readFileSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import type { Command } from '../../core/command.js';
import { intOption, parseCommandArgs, UsageError } from '../../core/args.js';
import { ExitCode } from '../../core/exit-codes.js';
import { projectRoot } from '../../core/project-root.js';
import { stageReport, type StageStatus } from '../../core/stage-report.js';
import { renderTable } from '../../core/table.js';
import type { ReportBlock, ReportSection, ReportSuite } from '../../core/report-details.js';
import { TlcUnavailableError } from '../../core/tlc-errors.js';
import { checkTraces, isBadInput, TraceCheckRunError, validateTraces, type TraceCheckResult, type TraceVerdict } from '../../seam/tracecheck/check.js';
import { ObservedTraceError, parseObservedText, type ObservedTrace } from '../../seam/tracecheck/format.js';
import { OBSERVED_DIR_ENV, OBSERVED_SUBDIR, observedDir, observedFiles } from '../../seam/tracecheck/store.js';
import { TRACE_DIR_ENV } from '../../core/trace-dir.js';
import type { TraceTarget } from '../../seam/tracecheck/target.js';
import { locateTlc } from '../../tlc/locate.js';
import { MODEL_NAMES, SYSTEMS, systemEntry } from '../../registry/systems.js';

const HELP = `Usage: fencecheck tracecheck TRACE... [--observed] [--system NAME]... [--timeout S] [--json]

Trace validation: TLC judges what the real code did. Each TRACE is an observed trace
(fencecheck.observed/1, docs/tracecheck.md): the spec's variables as read from the real system after
every step, unobserved ones left out, and the action each step claims. For each system's traces
fencecheck writes a module that EXTENDS the system's spec and holds the traces as a constant, whose
next-state relation takes a step's claimed action only where every observed variable equals the
next line's value, and runs TLC on it with the base config's constants (every trace of a system in
one run). A trace is accepted when TLC finds a behaviour of the spec that explains every line;
otherwise it is rejected at the first step TLC cannot explain, with the claimed action and the
variables that disagree (what the claimed action gives there, from a second TLC run).
Systems: ${MODEL_NAMES.join(', ')}.

Options:
  --observed       also every trace the sampled runs recorded (${OBSERVED_DIR_ENV}, else ${OBSERVED_SUBDIR}/ in the
                   trace folder: ${TRACE_DIR_ENV}, default reports/traces; verify sets it to its run's own)
  --system NAME    only these systems' traces (repeatable)
  --timeout S      TLC time per run, seconds (default 600)
  --json           print a StageReport (fencecheck.stage/1); details: one verdict per trace

A trace may predict its own verdict (\`predicted\`: the step its run's model expects TLC to reject,
or none): a run under an impl mutant is expected to be rejected where the mutant's code first leaves
the spec, an unpatched run to be accepted.

Exit codes: 0 every trace judged as predicted (accepted, or rejected at its predicted step) · 1 a trace
judged otherwise · 2 not run: no Java or tla2tools.jar, TLC failed, or no traces · 3 bad input (a
file that is no observed trace, an unknown system or variable, TLA+ TLC cannot evaluate) · 64 usage`;

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

export const command: Command = {
  name: 'tracecheck',
  summary: 'TLC judges observed traces of the real code: accepted, or the first step the spec cannot explain',
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseCommandArgs(
      argv,
      { observed: { type: 'boolean', default: false }, system: { type: 'string', multiple: true }, timeout: { type: 'string' }, json: { type: 'boolean', default: false } },
      true,
    );
    const timeoutMs = intOption(values, 'timeout', { min: 1, max: 86_400, default: 600 }) * 1000;
    for (const s of values.system ?? []) if (!MODEL_NAMES.includes(s)) throw new UsageError(`--system: unknown system '${s}' (one of ${MODEL_NAMES.join(', ')})`);
    if (positionals.length === 0 && !values.observed) throw new UsageError('give TRACE files, or --observed');
    const startedAt = new Date();
    const emit = (status: StageStatus, summary: string, extra: { reason?: string; counts?: Record<string, number>; details?: unknown } = {}) => {
      const report = stageReport({ stage: 'tracecheck', status, startedAt: startedAt.toISOString(), durationMs: Date.now() - startedAt.getTime(), summary, ...extra });
      if (values.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else process.stdout.write(`tracecheck: ${status}: ${summary}${extra.reason ? ` (${extra.reason})` : ''}\n`);
    };
    const badInput = (message: string) => {
      if (values.json) emit('failed', 'bad input', { reason: message });
      process.stderr.write(`fencecheck tracecheck: ${message}\n`);
      return ExitCode.BadInput;
    };
    const files = [...positionals, ...(values.observed ? observedFiles() : [])];
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
      if (err instanceof ObservedTraceError) return badInput(err.message);
      throw err;
    }
    const chosen = values.system ? traces.filter((t) => values.system!.includes(t.system)) : traces;
    const unknown = chosen.find((t) => !MODEL_NAMES.includes(t.system));
    if (unknown) return badInput(`trace ${unknown.id ?? unknown.source}: unknown system '${unknown.system}' (one of ${MODEL_NAMES.join(', ')})`);
    if (chosen.length === 0) {
      const where = values.observed && positionals.length === 0 ? ` in ${relative(projectRoot, observedDir()) || observedDir()}` : '';
      emit('not-run', 'no traces to check', { reason: `no observed traces${where}${values.system ? ` of ${values.system.join(', ')}` : ''}` });
      return ExitCode.NotRun;
    }
    const targets = new Map<string, TraceTarget>();
    for (const s of new Set(chosen.map((t) => t.system))) targets.set(s, traceTarget(s, await SYSTEMS[s]!()));
    try {
      validateTraces(chosen, (s) => targets.get(s)!);
    } catch (err) {
      if (isBadInput(err)) return badInput((err as Error).message);
      throw err;
    }
    const located = locateTlc();
    if (!located.ok) {
      emit('not-run', `${chosen.length} traces not checked`, { reason: located.reason });
      if (!values.json) process.stderr.write(`fencecheck tracecheck: not run: ${located.reason}\n`);
      return ExitCode.NotRun;
    }
    let result: TraceCheckResult;
    try {
      result = await checkTraces(chosen, (s) => targets.get(s)!, { tools: located.tools, timeoutMs, log: (l) => process.stderr.write(`${l}\n`) });
    } catch (err) {
      if (isBadInput(err)) return badInput((err as Error).message);
      if (err instanceof TraceCheckRunError || err instanceof TlcUnavailableError) {
        emit('not-run', `${chosen.length} traces not checked`, { reason: err.message });
        if (!values.json) process.stderr.write(`fencecheck tracecheck: not run: ${err.message}\n`);
        return ExitCode.NotRun;
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
    if (!values.json) {
      const shown = result.verdicts.filter((v) => !v.accepted || !v.asPredicted);
      if (shown.length > 0) process.stdout.write(`${renderTable(['trace', 'steps', 'TLC', 'expected', 'why'], shown.map(verdictLine))}\n`);
      for (const v of off) if (v.trace.replay) process.stdout.write(`  replay ${v.trace.id ?? v.trace.source}: ${v.trace.replay}\n`);
    }
    emit(status, summary, {
      counts,
      details,
      ...(status === 'failed' && {
        reason: `not as predicted: ${off
          .slice(0, 5)
          .map((v) => `${v.trace.id ?? v.trace.source} ${v.accepted ? 'accepted' : `rejected at step ${v.rejection!.step}`}`)
          .join('; ')}`,
      }),
    });
    return status === 'passed' ? ExitCode.Ok : ExitCode.Failed;
  },
};
