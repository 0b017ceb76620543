/**
 * What the real system did at a trace's step, for the step tables of the reports: a conformance
 * tour's trace records at each step its `observed` attempt, decision and note.
 */
import type { FencingTrace, TraceStep } from '../core/trace-format.js';

/** `acquire: issued 2` or `renew (renewed): …`; '' for a step that records none. */
export function observedText(step: TraceStep): string {
  const o = step.observed;
  if (!o) return '';
  const attempt = typeof o.attempt === 'string' ? o.attempt : '';
  const decision = typeof o.decision === 'string' ? o.decision : '';
  const note = typeof o.note === 'string' ? o.note : '';
  const head = `${attempt}${decision && decision !== 'transition' ? ` (${decision})` : ''}`;
  return [head, note].filter(Boolean).join(': ');
}

/** Conformance traces get a column for what the real system did at each step. */
export function hasObservedColumn(trace: FencingTrace): boolean {
  return trace.source === 'conform' && trace.steps.some((s) => observedText(s) !== '');
}
