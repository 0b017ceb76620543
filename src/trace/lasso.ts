import type { Trace } from '../core/trace-format.js';
import { actionLabel } from './steps.js';

/** One line saying how a lasso closes (`trace show`), or undefined for a finite trace. */
export function loopLine(trace: Trace): string | undefined {
  if (trace.loop === undefined) return undefined;
  const last = trace.steps.length - 1;
  const a = trace.loopAction;
  if (a?.action === 'Stuttering') return `lasso: the behaviour stutters in state ${trace.loop} forever`;
  return `lasso: after step ${last}, ${a ? actionLabel(a) : 'a step'} goes back to state ${trace.loop}; steps ${trace.loop}..${last} then repeat forever`;
}

/**
 * A lasso for replay: the stem and the loop once, i.e. the trace plus its closing step (whose state
 * is the state it returns to). A stuttering end adds nothing. The note says what was replayed.
 */
export function unrollLassoOnce(trace: Trace): { trace: Trace; note?: string } {
  if (trace.loop === undefined) return { trace };
  const { loop, loopAction, ...rest } = trace;
  if (!loopAction || loopAction.action === 'Stuttering') {
    return { trace: rest, note: `lasso: the behaviour stutters in state ${loop}; replaying the ${trace.steps.length} states once (stuttering changes nothing)` };
  }
  const back = trace.steps[loop]!;
  const closing = { action: loopAction.action, params: loopAction.params, state: back.state, ...(back.broken !== undefined && { broken: back.broken }) };
  return {
    trace: { ...rest, steps: [...trace.steps, closing] },
    note: `lasso: replaying the stem and the loop once — steps 0..${trace.steps.length - 1}, then the closing ${actionLabel(loopAction)} back to state ${loop} (step ${trace.steps.length})`,
  };
}
