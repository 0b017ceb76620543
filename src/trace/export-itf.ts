import type { FencingState } from '../systems/fencing/state.js';
import { FENCING_VARIABLES } from '../systems/fencing/tlc/state.js';
import type { AnyTrace } from '../core/trace-format.js';
import type { ItfValue } from './itf-value.js';

export const ITF_FORMAT_DESCRIPTION = 'https://apalache-mc.org/docs/adr/015adr-trace.html';

export interface ItfTrace {
  readonly '#meta': Readonly<Record<string, unknown>>;
  readonly vars: readonly string[];
  readonly states: readonly Readonly<Record<string, unknown>>[];
  readonly loop?: number;
}

const big = (n: number): ItfValue => ({ '#bigint': String(n) });

/** A fencing state in ITF: `version` a `#map` from pod to phase, leases records, integers `#bigint`; pods and None as strings. */
function fencingItf(s: FencingState): Record<string, ItfValue> {
  const lease = (l: FencingState['oldLease']): ItfValue => ({ owner: l.owner, gen: big(l.gen) });
  const all: Record<string, ItfValue> = {
    version: { '#map': Object.entries(s.version).map(([p, v]) => [p, v] as const) },
    target: s.target,
    oldLease: lease(s.oldLease),
    newLease: lease(s.newLease),
    oldGen: big(s.oldGen),
    newGen: big(s.newGen),
    backfilled: s.backfilled,
    mode: s.mode,
    lastIssued: big(s.lastIssued),
    monoOk: s.monoOk,
  };
  return Object.fromEntries(FENCING_VARIABLES.map((v) => [v, all[v]!]));
}

const itfParams = (p: Readonly<Record<string, string | number | ItfValue>>): Record<string, ItfValue> =>
  Object.fromEntries(Object.entries(p).map(([k, v]) => [k, typeof v === 'number' ? big(v) : v]));

/**
 * The trace as an ITF file. ITF has no standard place for the action taken, so each state's `#meta`
 * carries `action` and `params` (as Apalache's `#meta` extensions do); the lasso's closing action and
 * what only fencecheck knows (system, bounds, mutant, violated) go into the trace's `#meta`, which
 * `trace import` reads back.
 */
export function toItf(trace: AnyTrace): ItfTrace {
  const vars = trace.system === 'fencing' ? [...FENCING_VARIABLES] : [...trace.vars];
  const states = trace.steps.map((step, index) => ({
    '#meta': { index, action: step.action, params: itfParams(step.params) },
    ...(trace.system === 'fencing' ? fencingItf(step.state as FencingState) : (step.state as Record<string, ItfValue>)),
  }));
  const fencecheck: Record<string, unknown> = {
    system: trace.system,
    source: trace.source,
    ...(trace.system === 'fencing' && { bounds: trace.bounds }),
    ...(trace.system === 'fencing' && trace.mutant !== undefined && { mutant: trace.mutant }),
    ...(trace.violated !== undefined && { violated: trace.violated }),
  };
  return {
    '#meta': {
      format: 'ITF',
      'format-description': ITF_FORMAT_DESCRIPTION,
      source: trace.system === 'tla' ? (trace.spec ?? 'unknown') : 'tla/fencing/RedisClusterFencingMigration.tla',
      description: `exported by fencecheck trace export --itf from a fencecheck.trace/1 ${trace.source} trace`,
      ...(trace.loopAction && { loopAction: { action: trace.loopAction.action, params: itfParams(trace.loopAction.params) } }),
      fencecheck,
    },
    vars,
    states,
    ...(trace.loop !== undefined && { loop: trace.loop }),
  };
}
