/**
 * TLC's verdict on a rehearsal's observed traces (trace.ts), through the project's trace
 * validation (src/seam/tracecheck/): accepted when TLC explains every line of every session's
 * trace by the fencing spec, rejected at the first step it cannot explain (the claimed action and
 * what disagrees), and "not run" — never accepted — without Java or the jar, or when TLC itself
 * fails or runs out of time.
 */
import { TlcUnavailableError } from '../../../core/tlc-errors.js';
import { checkTraces, TraceCheckRunError } from '../../../seam/tracecheck/check.js';
import type { ObservedTrace } from '../../../seam/tracecheck/format.js';
import type { TraceTarget } from '../../../seam/tracecheck/target.js';
import { locateTlc, type TlcTools } from '../../../tlc/locate.js';
import { BASE_CONFIG_PATH, SPEC_PATH } from '../tlc/config.js';
import { FENCING_VARIABLES } from '../tlc/state.js';

/** The fencing spec as trace validation's target: no silent actions (every expiry is a line). */
export const FENCING_TRACE_TARGET: TraceTarget = { system: 'fencing', spec: SPEC_PATH, config: BASE_CONFIG_PATH, variables: FENCING_VARIABLES };

export interface RejectedSession {
  readonly id: string;
  readonly step: number;
  readonly claimed: string;
  readonly note?: string;
  readonly reason: string;
}

export type TraceJudgement =
  | {
      readonly verdict: 'accepted' | 'rejected';
      readonly traces: number;
      readonly steps: number;
      readonly accepted: number;
      readonly rejected: readonly RejectedSession[];
      /** TLC's distinct states and states generated over the check runs (the diagnosis apart). */
      readonly distinctStates: number;
      readonly statesGenerated: number;
      readonly tlcWallMs: number;
    }
  | { readonly verdict: 'not run'; readonly traces: number; readonly steps: number; readonly reason: string };

export interface JudgeOptions {
  readonly tools?: TlcTools;
  readonly timeoutMs?: number;
  readonly log?: (line: string) => void;
}

export async function judgeTraces(traces: readonly ObservedTrace[], o: JudgeOptions = {}): Promise<TraceJudgement> {
  const steps = traces.reduce((n, t) => n + t.steps.length - 1, 0);
  const notRun = (reason: string): TraceJudgement => ({ verdict: 'not run', traces: traces.length, steps, reason });
  if (traces.length === 0) return notRun('no session saw a step');
  let tools = o.tools;
  if (!tools) {
    const located = locateTlc();
    if (!located.ok) return notRun(located.reason);
    tools = located.tools;
  }
  try {
    const r = await checkTraces(traces, () => FENCING_TRACE_TARGET, { tools, timeoutMs: o.timeoutMs ?? 300_000, ...(o.log && { log: o.log }) });
    const rejected = r.verdicts
      .filter((v) => !v.accepted)
      .map(
        (v): RejectedSession => ({
          id: v.trace.id ?? v.trace.source,
          step: v.rejection!.step,
          claimed: v.rejection!.claimed,
          ...(v.rejection!.note !== undefined && { note: v.rejection!.note }),
          reason: v.rejection!.reason,
        }),
      );
    return {
      verdict: rejected.length === 0 ? 'accepted' : 'rejected',
      traces: r.traces,
      steps: r.steps,
      accepted: r.verdicts.length - rejected.length,
      rejected,
      distinctStates: r.batches.reduce((n, b) => n + (b.distinct ?? 0), 0),
      statesGenerated: r.batches.reduce((n, b) => n + (b.generated ?? 0), 0),
      tlcWallMs: r.tlcWallMs,
    };
  } catch (err) {
    if (err instanceof TraceCheckRunError || err instanceof TlcUnavailableError) return notRun(err.message);
    throw err;
  }
}

/** The verdict in one line, for the rollout's summary. */
export function judgementLine(j: TraceJudgement): string {
  if (j.verdict === 'not run') return `TLC not run (${j.reason}): ${j.traces} session traces, ${j.steps} steps unjudged`;
  const head = `TLC ${j.verdict}: ${j.accepted}/${j.traces} session traces, ${j.steps} steps, ${j.distinctStates} distinct states, ${(j.tlcWallMs / 1000).toFixed(1)} s`;
  return j.rejected.length === 0 ? head : `${head}; ${j.rejected.map((r) => `${r.id} rejected at ${r.reason}${r.note ? ` [${r.note}]` : ''}`).join('; ')}`;
}
