/**
 * A property run as an observed trace (src/seam/tracecheck/): the driver's observation before the
 * first step and after every step (the real keyspace and replies, the deploy records), each step
 * claiming the event the real system applied, else a stutter. Never the model's prediction: a
 * record's `predicted` is the run's own model, kept only to say which step it expected TLC to reject.
 */
import type { ObservedTrace } from '../../src/seam/tracecheck/format.js';
import { fencingObservedTrace } from '../../src/systems/fencing/tracecheck.js';
import type { FencingBounds } from '../../src/systems/fencing/state.js';
import type { RunResult } from './run.js';

export interface PropsTraceMeta {
  readonly id: string;
  readonly bounds: FencingBounds;
  readonly mutant?: string;
  readonly replay?: string;
}

export function propsObservedTrace(run: Pick<RunResult, 'initial' | 'records'>, meta: PropsTraceMeta): ObservedTrace {
  const steps = run.records.map((r) => ({
    applied: r.event !== undefined && r.status === 'applied' ? r.event : null,
    observed: r.observed,
    note: `${r.intent}: ${r.status}${r.note ? ` (${r.note})` : ''}`,
  }));
  return fencingObservedTrace(run.initial, steps, { ...meta, source: 'props', predictedBy: "the property run's model (the twin's step from the observation before)" });
}
