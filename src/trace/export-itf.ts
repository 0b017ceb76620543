/**
 * A trace of any system as an ITF file (https://apalache-mc.org/docs/adr/015adr-trace.html): its
 * `vars` and states as they are (a trace already holds ITF values). ITF has no standard place for the
 * action taken, so each state's `#meta` carries `index`, `action` and `params` (as Apalache's `#meta`
 * extensions do); the lasso's closing action and what only fencecheck knows (system, source, bounds,
 * mutant, violated, the invariants broken at the end) go into the trace's `#meta.fencecheck`, which
 * `trace import` reads back.
 */
import type { Trace } from '../core/trace-format.js';

export const ITF_FORMAT_DESCRIPTION = 'https://apalache-mc.org/docs/adr/015adr-trace.html';

export interface ItfTrace {
  readonly '#meta': Readonly<Record<string, unknown>>;
  readonly vars: readonly string[];
  readonly states: readonly Readonly<Record<string, unknown>>[];
  readonly loop?: number;
}

export function toItf(trace: Trace): ItfTrace {
  const states = trace.steps.map((step, index) => ({ '#meta': { index, action: step.action, params: step.params }, ...step.state }));
  const fencecheck: Record<string, unknown> = {
    system: trace.system,
    source: trace.source,
    ...(trace.bounds !== undefined && { bounds: trace.bounds }),
    ...(trace.mutant !== undefined && { mutant: trace.mutant }),
    ...(trace.violated !== undefined && { violated: trace.violated }),
    ...(trace.brokenAtEnd !== undefined && { brokenAtEnd: trace.brokenAtEnd }),
  };
  return {
    '#meta': {
      format: 'ITF',
      'format-description': ITF_FORMAT_DESCRIPTION,
      source: trace.spec ?? 'unknown',
      description: `exported by fencecheck trace export --itf from a ${trace.system} ${trace.source} trace`,
      ...(trace.loopAction && { loopAction: trace.loopAction }),
      fencecheck,
    },
    vars: [...trace.vars],
    states,
    ...(trace.loop !== undefined && { loop: trace.loop }),
  };
}
