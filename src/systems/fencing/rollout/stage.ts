/**
 * The rollout stage: one rehearsal (rehearsal.ts), its observed traces written for tracecheck and,
 * when asked, judged by TLC here, and its report. `fencecheck rollout` parses its options, runs this
 * and prints; verify's `rollout` stage runs it without the TLC judgement, which its `tracecheck`
 * stage makes on the written traces (under the same `--allow-not-run tlc` as every TLC stage).
 */
import type { StageIO } from '../../../core/stage.js';
import { stageReport, type StageReport } from '../../../core/stage-report.js';
import { PrometheusUnavailableError } from '../../../fleet/prometheus.js';
import { writeObserved } from '../../../seam/tracecheck/store.js';
import { ValkeyUnavailableError } from '../../../valkey/errors.js';
import type { BrokenGate } from './broken-gates.js';
import { describeFigures, type RehearsalFigures } from './figures.js';
import { judgementLine, judgeTraces, type TraceJudgement } from './judge.js';
import { DEFAULT_REHEARSAL, PodStartError, rehearse } from './rehearsal.js';

export interface RolloutInput {
  readonly seed?: number;
  readonly pods: number;
  readonly sessions: number;
  readonly brokenGate?: BrokenGate;
  /** Judge the observed traces with TLC in this run (the command); verify leaves it to tracecheck. */
  readonly judge: boolean;
}

export interface RolloutDetails {
  readonly seed: number;
  readonly violations: readonly string[];
  readonly figures: RehearsalFigures;
  readonly trace: TraceJudgement | null;
  readonly traceFile: string | null;
}

export async function rolloutStage(input: RolloutInput, io: StageIO): Promise<StageReport<RolloutDetails | { readonly seed: number }>> {
  const seed = input.seed ?? Math.floor(Math.random() * 2 ** 31);
  const startedAt = new Date().toISOString();
  let result;
  try {
    result = await rehearse({
      ...DEFAULT_REHEARSAL,
      seed,
      pods: input.pods,
      sessions: input.sessions,
      say: (l) => io.log(l),
      ...(input.brokenGate && { gate: input.brokenGate.make(DEFAULT_REHEARSAL) }),
    });
  } catch (err) {
    if (err instanceof PrometheusUnavailableError || err instanceof ValkeyUnavailableError || err instanceof PodStartError) {
      return stageReport({ stage: 'rollout', status: 'not-run', startedAt, durationMs: 0, summary: `not run: ${err.message.split('\n')[0]}`, details: { seed } });
    }
    throw err;
  }
  const f = result.figures;
  const traceFile = writeObserved(`rollout-seed-${seed}`, result.traces);
  const trace = input.judge ? await judgeTraces(result.traces, { log: (l) => io.log(l) }) : null;
  const ok = result.ok && trace?.verdict !== 'rejected';
  const d = f.doors;
  const doors = d
    ? `doors: compatible ${d.compatible ? 'allowed' : 'refused'}, enabled ${d.enabled ? 'allowed' : 'refused'} (${d.shards} shards, ${d.keysCarried} keys carried, ${d.askRedirects} ASK redirects)`
    : 'doors not reached';
  const judged = trace ? judgementLine(trace) : `${result.traces.length} observed traces written for tracecheck`;
  const summary = `${ok ? 'held' : 'FAILED'}: ${describeFigures(seed, f)}; ${doors}; ${judged}`;
  return stageReport({ stage: 'rollout', status: ok ? 'passed' : 'failed', startedAt, durationMs: f.wallMs, summary, details: { seed, violations: result.violations, figures: f, trace, traceFile } });
}
