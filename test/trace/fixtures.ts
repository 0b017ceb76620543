/**
 * Hand-built traces for renderer tests: the M1 counterexample (AcquireB without the old-lease check)
 * written out step by step from the design page's action table, so these tests need no exploration;
 * the trace itself is the fencing system's (fencecheck.trace/2: states through its toTla).
 */
import { initialState, type FencingState, type Pod } from '../../src/systems/fencing/state.js';
import type { Trace, TraceSource } from '../../src/core/trace-format.js';
import { traceOfStates, type StateStep } from '../../src/seam/trace.js';
import { fencingSystem } from '../../src/systems/fencing/system.js';

type Edit = (s: FencingState) => FencingState;

function build(steps: readonly [string, Record<string, string>, Edit][]): StateStep<FencingState>[] {
  let state = initialState();
  const out: StateStep<FencingState>[] = [{ action: 'Init', params: {}, state }];
  for (const [action, params, edit] of steps) {
    state = edit(state);
    out.push({ action, params, state });
  }
  return out;
}

const upgrade =
  (p: Pod): Edit =>
  (s) => ({ ...s, version: { ...s.version, [p]: s.target } });
const advance: Edit = (s) => ({ ...s, target: ({ O: 'A', A: 'B', B: 'C', C: 'C' } as const)[s.target] });

/** Init → fleet to A → target B → p1 on B → AcquireA(p2) on the old key → AcquireB(p1) on the new key. */
export function m1Steps(): StateStep<FencingState>[] {
  return build([
    ['AdvanceTarget', {}, advance],
    ['UpgradePod', { p: 'p1' }, upgrade('p1')],
    ['UpgradePod', { p: 'p2' }, upgrade('p2')],
    ['UpgradePod', { p: 'p3' }, upgrade('p3')],
    ['AdvanceTarget', {}, advance],
    ['UpgradePod', { p: 'p1' }, upgrade('p1')],
    ['AcquireA', { p: 'p2' }, (s) => ({ ...s, oldLease: { owner: 'p2', gen: 1 }, oldGen: 1, lastIssued: 1 })],
    ['AcquireB', { p: 'p1' }, (s) => ({ ...s, newLease: { owner: 'p1', gen: 2 }, newGen: 2, lastIssued: 2 })],
  ]);
}

/** The step index at which two leases are live in m1Steps(). */
export const M1_BREAK_STEP = 8;

export function m1Trace(source: TraceSource = 'model'): Trace {
  return traceOfStates(fencingSystem(), m1Steps(), { source, mutant: 'M1', violated: 'Inv_SingleAuthority' });
}

/** A JSON copy (what a file holds). */
export const plain = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;
