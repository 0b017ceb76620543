import { brokenInvariants } from '../invariants.js';
import { NONE, type FencingBounds, type FencingState, type Pod } from '../state.js';
import { TRACE_SCHEMA, type FencingTrace, type TraceStep } from '../../../core/trace-format.js';
import { POD_ACTIONS } from './edges.js';
import { TlcOutputError } from '../../../tlc/errors.js';
import { toFencingState } from './state.js';
import type { TlcLoop, TlcTraceStep } from '../../../tlc/tool-output.js';

/**
 * A TLC error trace of RedisClusterFencingMigration as the shared trace format. Older TLC releases
 * print `<AcquireB line …>` without arguments; the pod is then read off the state change.
 */
export function toFencingTrace(
  steps: readonly TlcTraceStep[],
  bounds: FencingBounds,
  extra: { mutant?: string; violated?: string; loop?: TlcLoop } = {},
): FencingTrace {
  const out: TraceStep[] = [];
  for (const step of steps) {
    if (step.action === 'Stuttering' || step.action === 'BackToState') continue; // lasso ends live in `loop`
    let state: FencingState;
    try {
      state = toFencingState(step.vars);
    } catch (err) {
      throw new TlcOutputError(`trace step ${step.index} (${step.action}): ${(err as Error).message}`);
    }
    const prev = out[out.length - 1]?.state;
    let params: Record<string, string> = {};
    if (POD_ACTIONS.has(step.action)) {
      const p = step.args[0] ?? (prev ? inferPod(step.action, prev, state) : undefined);
      if (p === undefined) throw new TlcOutputError(`trace step ${step.index} (${step.action}): cannot tell which pod acted`);
      params = { p };
    } else if (step.args.length > 0) {
      params = Object.fromEntries(step.args.map((a, i) => [`arg${i}`, a]));
    }
    out.push({ action: step.action, params, state });
  }
  if (out.length === 0) throw new TlcOutputError('TLC reported an error trace with no states');
  const last = out[out.length - 1]!.state;
  const loop = extra.loop ? fencingLoop(extra.loop, out) : undefined;
  return {
    schema: TRACE_SCHEMA,
    system: 'fencing',
    source: 'tlc',
    bounds,
    ...(extra.mutant !== undefined && { mutant: extra.mutant }),
    ...(extra.violated !== undefined && { violated: extra.violated }),
    brokenAtEnd: brokenInvariants(last, bounds),
    steps: out,
    ...(loop && { loop: loop.to, loopAction: loop.action }),
  };
}

/** The lasso's closing step, its pod read off the change from the last state back to the loop's target when TLC printed none. */
function fencingLoop(l: TlcLoop, out: readonly TraceStep[]): { to: number; action: FencingTrace['loopAction'] & object } {
  const to = l.toIndex - 1;
  if (to < 0 || to >= out.length) throw new TlcOutputError(`the lasso goes back to state ${l.toIndex}, but the trace has ${out.length} states`);
  if (l.kind === 'stuttering') return { to, action: { action: 'Stuttering', params: {} } };
  const last = out[out.length - 1]!.state;
  if (!POD_ACTIONS.has(l.action)) return { to, action: { action: l.action, params: Object.fromEntries(l.args.map((a, i) => [`arg${i}`, a])) } };
  const p = l.args[0] ?? inferPod(l.action, last, out[to]!.state);
  if (p === undefined) throw new TlcOutputError(`the lasso's closing step (${l.action}): cannot tell which pod acted`);
  return { to, action: { action: l.action, params: { p } } };
}

function inferPod(action: string, prev: FencingState, next: FencingState): Pod | undefined {
  const owner = (o: string): Pod | undefined => (o === NONE ? undefined : (o as Pod));
  switch (action) {
    case 'AcquireO':
    case 'AcquireA':
      return owner(next.oldLease.owner);
    case 'AcquireB':
    case 'AcquireC':
    case 'MigrateB':
      return owner(next.newLease.owner);
    default:
      return (Object.keys(next.version) as Pod[]).find((p) => prev.version[p] !== next.version[p]);
  }
}
