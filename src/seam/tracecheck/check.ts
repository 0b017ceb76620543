/**
 * Trace validation: TLC judges observed traces of the real code against a system's spec
 * (module.ts says how). Traces of one system with the same constants go to TLC together, in one
 * run; each is accepted (TLC found a behaviour of the spec that explains every line) or rejected at
 * the first step TLC cannot explain. For a rejected trace a second TLC run says why (the
 * diagnosis): it replays the trace up to that step and takes the step's claimed action without its
 * observations; each successor TLC generates is compared, by TLC, variable by variable and view by
 * view, with what the step observed. The successor with the fewest differences is reported (what
 * the spec allows there, beside what was observed), or that the claimed action is not enabled in
 * any state the log leads to; and whether some other action of Next explains the step.
 */
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { projectRoot } from '../../core/project-root.js';
import { formatTlaValue, parseTlaValue, type TlaValue } from '../../core/tla-value.js';
import { TlcOutputError } from '../../core/tlc-errors.js';
import type { TlcTools } from '../../tlc/locate.js';
import { runTlc, type TlcRun } from '../../tlc/run.js';
import { claimLabel, ObservedTraceError, type ObservedTrace } from './format.js';
import { traceModule, TRACE_MODULE } from './module.js';
import { diagnosisPrints, explainedLines, tracePrints, type DiagnosisPrint } from './prints.js';
import { specFacts, type TraceTarget } from './target.js';

/** A variable or view whose observed value no successor of the claimed action has. */
export interface Disagreement {
  /** The variable's name, or the view's expression. */
  readonly name: string;
  readonly observed: string;
  /** What the spec gives it there (in the closest successor). */
  readonly spec: string;
}

export interface Rejection {
  /** The index of the step TLC cannot explain (0: the initial state). */
  readonly step: number;
  readonly claimed: string;
  readonly note?: string;
  /** Successors of the claimed action from the states the log leads to (0: not enabled there). */
  readonly successors: number;
  /** The closest successor's differences from the observation (empty when the claim is not enabled). */
  readonly disagree: readonly Disagreement[];
  /** Successors of other actions of Next that match the observation (the step explained by another action). */
  readonly otherActions: number;
  /** One line: the step, the claim, what disagrees. */
  readonly reason: string;
}

export interface TraceVerdict {
  readonly trace: ObservedTrace;
  /** The index of the trace in the input. */
  readonly index: number;
  readonly steps: number;
  readonly accepted: boolean;
  readonly rejection?: Rejection;
  /** Whether TLC's verdict is the trace's own prediction (none: it predicts acceptance). */
  readonly asPredicted: boolean;
}

export interface BatchFigures {
  readonly system: string;
  readonly traces: number;
  /** Logged steps (transitions; initial states not counted). */
  readonly steps: number;
  readonly tlcWallMs: number;
  /** TLC's own figures for the check run. */
  readonly generated?: number;
  readonly distinct?: number;
  /** The diagnosis run, when a trace was rejected. */
  readonly diagnosisWallMs?: number;
}

export interface TraceCheckResult {
  readonly verdicts: readonly TraceVerdict[];
  readonly batches: readonly BatchFigures[];
  readonly traces: number;
  readonly steps: number;
  readonly tlcWallMs: number;
  readonly stepsPerSecond: number;
}

export interface TraceCheckOptions {
  readonly tools?: TlcTools;
  readonly timeoutMs?: number;
  readonly root?: string;
  /** Traces per TLC run at most (default: all of a system and constants in one). */
  readonly batchSize?: number;
  readonly log?: (line: string) => void;
}

/** TLC did not finish a trace run as a run of a correct trace module: not a verdict. */
export class TraceCheckRunError extends Error {
  override readonly name = 'TraceCheckRunError';
  constructor(
    message: string,
    readonly kind: 'bad-input' | 'not-run',
  ) {
    super(message);
  }
}

const stepsOf = (t: ObservedTrace) => t.steps.length - 1;

/** The traces' indexes by system and constants: what can share one TLC run. */
function batchesOf(traces: readonly ObservedTrace[]): number[][] {
  const groups = new Map<string, number[]>();
  traces.forEach((t, i) => {
    const key = `${t.system}\u0000${JSON.stringify(Object.entries(t.constants ?? {}).sort())}`;
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  return [...groups.values()];
}

/**
 * Writes every batch's module without running TLC: a trace that cannot be judged (an unknown
 * variable, a value that is no value, the mutation constant set) throws ObservedTraceError here,
 * before anything starts.
 */
export function validateTraces(traces: readonly ObservedTrace[], targets: (system: string) => TraceTarget, root = projectRoot): void {
  for (const indexes of batchesOf(traces)) {
    const target = targets(traces[indexes[0]!]!.system);
    traceModule(
      target,
      specFacts(target, root),
      indexes.map((i) => traces[i]!),
    );
  }
}

/** Checks every trace against its system's target (`targets` by system name). */
export async function checkTraces(traces: readonly ObservedTrace[], targets: (system: string) => TraceTarget, o: TraceCheckOptions = {}): Promise<TraceCheckResult> {
  const root = o.root ?? projectRoot;
  const groups = batchesOf(traces);
  const verdicts: TraceVerdict[] = [];
  const batches: BatchFigures[] = [];
  for (const indexes of groups) {
    const system = traces[indexes[0]!]!.system;
    const target = targets(system);
    const size = o.batchSize ?? indexes.length;
    for (let from = 0; from < indexes.length; from += size) {
      const part = indexes.slice(from, from + size);
      const { verdicts: vs, figures } = await checkBatch(
        target,
        part.map((i) => traces[i]!),
        part,
        root,
        o,
      );
      verdicts.push(...vs);
      batches.push(figures);
    }
  }
  verdicts.sort((a, b) => a.index - b.index);
  const steps = batches.reduce((n, b) => n + b.steps, 0);
  const tlcWallMs = batches.reduce((n, b) => n + b.tlcWallMs, 0);
  return { verdicts, batches, traces: traces.length, steps, tlcWallMs, stepsPerSecond: tlcWallMs > 0 ? Math.round((steps * 1000) / tlcWallMs) : 0 };
}

/** Writes the module beside a copy of the spec's folder and runs TLC on it. */
async function runModule(target: TraceTarget, text: string, cfg: string, root: string, o: TraceCheckOptions): Promise<TlcRun> {
  const dir = mkdtempSync(join(tmpdir(), 'fencecheck-tracecheck-'));
  try {
    const specPath = isAbsolute(target.spec) ? target.spec : join(root, target.spec);
    const specDir = dirname(specPath);
    for (const f of readdirSync(specDir)) if (f.endsWith('.tla')) copyFileSync(join(specDir, f), join(dir, f));
    writeFileSync(join(dir, `${TRACE_MODULE}.tla`), text);
    writeFileSync(join(dir, `${TRACE_MODULE}.cfg`), cfg);
    return await runTlc({ spec: join(dir, `${TRACE_MODULE}.tla`), config: join(dir, `${TRACE_MODULE}.cfg`), timeoutMs: o.timeoutMs ?? 600_000, ...(o.tools && { tools: o.tools }) });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The run as a finished check, or why it is none (bad input: the traces' TLA+; not run: TLC itself). */
function completed(run: TlcRun, what: string): Extract<TlcRun, { kind: 'completed' }> {
  if (run.kind === 'timeout') throw new TraceCheckRunError(`${what}: TLC did not finish within ${Math.round(run.timeoutMs / 1000)} s`, 'not-run');
  const r = run.result;
  if (r.outcome === 'ok') return run;
  const detail = [...r.sany.map((d) => `${d.message} (line ${d.line}, col ${d.column})`), ...r.errors].join('; ').slice(0, 600);
  if (r.outcome === 'parse-error' || r.outcome === 'config-error' || r.outcome === 'eval-error' || r.outcome === 'assumption-false') {
    throw new TraceCheckRunError(`${what}: TLC could not evaluate the traces (${r.outcome}): ${detail}`, 'bad-input');
  }
  throw new TraceCheckRunError(`${what}: TLC ended with ${r.outcome}: ${detail}`, 'not-run');
}

async function checkBatch(
  target: TraceTarget,
  traces: readonly ObservedTrace[],
  indexes: readonly number[],
  root: string,
  o: TraceCheckOptions,
): Promise<{ verdicts: TraceVerdict[]; figures: BatchFigures }> {
  const facts = specFacts(target, root);
  const mod = traceModule(target, facts, traces);
  const what = `${target.system}: ${traces.length} trace(s)`;
  o.log?.(`[tracecheck] ${what}, ${traces.reduce((n, t) => n + stepsOf(t), 0)} steps: one TLC run`);
  const run = completed(await runModule(target, mod.text, mod.cfg, root, o), what);
  const explained = explainedLines(tracePrints(run.raw));
  const stops = traces.map((_, i) => explained.get(i + 1) ?? 0);
  const rejected = traces.map((t, i) => (stops[i]! < t.steps.length ? i : -1)).filter((i) => i >= 0);
  let diagnoses = new Map<number, DiagnosisPrint[]>();
  let diagnosisWallMs: number | undefined;
  if (rejected.length > 0) {
    o.log?.(`[tracecheck] ${rejected.length} rejected: diagnosis run`);
    const sub = rejected.map((i) => traces[i]!);
    const dmod = traceModule(target, facts, sub, { stops: rejected.map((i) => stops[i]!) });
    const drun = completed(await runModule(target, dmod.text, dmod.cfg, root, o), `${what}: diagnosis`);
    diagnosisWallMs = drun.wallMs;
    const byTrace = new Map<number, DiagnosisPrint[]>();
    for (const p of diagnosisPrints(tracePrints(drun.raw))) byTrace.set(rejected[p.trace - 1]!, [...(byTrace.get(rejected[p.trace - 1]!) ?? []), p]);
    diagnoses = byTrace;
  }
  const verdicts = traces.map((t, i): TraceVerdict => {
    const accepted = stops[i] === t.steps.length;
    const rejection = accepted ? undefined : rejectionOf(target, t, stops[i]!, diagnoses.get(i) ?? []);
    const predicted = t.predicted?.step ?? null;
    return {
      trace: t,
      index: indexes[i]!,
      steps: stepsOf(t),
      accepted,
      ...(rejection && { rejection }),
      asPredicted: accepted ? predicted === null : predicted === rejection!.step,
    };
  });
  const r = run.result;
  return {
    verdicts,
    figures: {
      system: target.system,
      traces: traces.length,
      steps: traces.reduce((n, t) => n + stepsOf(t), 0),
      tlcWallMs: run.wallMs,
      ...(r.generated !== undefined && { generated: r.generated }),
      ...(r.distinct !== undefined && { distinct: r.distinct }),
      ...(diagnosisWallMs !== undefined && { diagnosisWallMs }),
    },
  };
}

const show = (v: TlaValue) => formatTlaValue(v);
const showText = (text: string) => {
  try {
    return formatTlaValue(parseTlaValue(text));
  } catch {
    return text;
  }
};

/** The rejection of trace `t` whose lines up to `explained` (1-based) TLC explained, from the diagnosis run's prints. */
function rejectionOf(target: TraceTarget, t: ObservedTrace, explained: number, prints: readonly DiagnosisPrint[]): Rejection {
  const stepIndex = explained;
  const step = t.steps[stepIndex];
  if (!step) throw new TlcOutputError(`trace ${t.id ?? ''}: TLC explained ${explained} lines of ${t.steps.length}, yet rejected it`);
  const claimed = stepIndex === 0 ? 'Init' : claimLabel(step);
  const own = prints.filter((p) => p.kind === (stepIndex === 0 ? 'init' : 'claimed'));
  const other = stepIndex === 0 ? 0 : prints.filter((p) => p.kind === 'other').length;
  const observedVars = Object.entries(step.vars ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string');
  const views = Object.entries(step.views ?? {});
  const differences = (p: DiagnosisPrint): Disagreement[] => {
    const out: Disagreement[] = [];
    target.variables.forEach((v, i) => {
      if (p.agree[i]) return;
      const obs = observedVars.find(([n]) => n === v);
      out.push({ name: v, observed: obs ? showText(obs[1]) : '?', spec: p.values[i] ? show(p.values[i]) : '?' });
    });
    views.forEach(([expr, text], i) => {
      if (p.viewsAgree[i] !== false) return;
      const got = p.views[i];
      out.push({ name: expr, observed: showText(text), spec: got ? show(got) : '?' });
    });
    return out;
  };
  const ranked = own.map((p) => ({ p, d: differences(p) })).sort((a, b) => a.d.length - b.d.length);
  const best = ranked[0];
  const where = stepIndex === 0 ? 'the initial state' : `step ${stepIndex}`;
  let reason: string;
  if (!best) reason = stepIndex === 0 ? `${where}: the spec's Init has no state` : `${where}: ${claimed} is not enabled in any state the log leads to`;
  else if (best.d.length === 0) reason = `${where}: ${claimed} matches the observation only with an unobserved view disagreeing (compare TLC's values)`;
  else reason = `${where}: ${claimed} gives ${best.d.map((d) => `${d.name} = ${d.spec}`).join(', ')}; observed ${best.d.map((d) => `${d.name} = ${d.observed}`).join(', ')}`;
  if (other > 0) reason += ` (another action of the spec explains the step)`;
  return {
    step: stepIndex,
    claimed,
    ...(step.note !== undefined && { note: step.note }),
    successors: own.length,
    disagree: best?.d ?? [],
    otherActions: other,
    reason,
  };
}

/** For callers that handle traces from files: the errors that are bad input. */
export function isBadInput(err: unknown): boolean {
  return err instanceof ObservedTraceError || (err instanceof TraceCheckRunError && err.kind === 'bad-input');
}
