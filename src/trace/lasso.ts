import type { AnyTrace, FencingTrace } from '../core/trace-format.js';
import { formatItf, type ItfValue } from './itf-value.js';

function label(action: string, params: Readonly<Record<string, unknown>>): string {
  const args = Object.values(params).map((v) => (typeof v === 'string' || typeof v === 'number' ? String(v) : formatItf(v as ItfValue)));
  return args.length > 0 ? `${action}(${args.join(',')})` : action;
}

/** One line saying how a lasso closes (`trace show`), or undefined for a finite trace. */
export function loopLine(trace: AnyTrace): string | undefined {
  if (trace.loop === undefined) return undefined;
  const last = trace.steps.length - 1;
  const a = trace.loopAction;
  if (a?.action === 'Stuttering') return `lasso: the behaviour stutters in state ${trace.loop} forever`;
  return `lasso: after step ${last}, ${a ? label(a.action, a.params) : 'a step'} goes back to state ${trace.loop}; steps ${trace.loop}..${last} then repeat forever`;
}

/**
 * A lasso for replay: the stem and the loop once, i.e. the trace plus its closing step (whose model
 * state is the state it returns to). A stuttering end adds nothing. The note says what was replayed.
 */
export function unrollLassoOnce(trace: FencingTrace): { trace: FencingTrace; note?: string } {
  if (trace.loop === undefined) return { trace };
  const { loop, loopAction, ...rest } = trace;
  if (!loopAction || loopAction.action === 'Stuttering') {
    return { trace: rest, note: `lasso: the behaviour stutters in state ${loop}; replaying the ${trace.steps.length} states once (stuttering changes nothing)` };
  }
  const closing = { action: loopAction.action, params: loopAction.params, state: trace.steps[loop]!.state };
  return {
    trace: { ...rest, steps: [...trace.steps, closing] },
    note: `lasso: replaying the stem and the loop once — steps 0..${trace.steps.length - 1}, then the closing ${label(loopAction.action, loopAction.params)} back to state ${loop} (step ${trace.steps.length})`,
  };
}
