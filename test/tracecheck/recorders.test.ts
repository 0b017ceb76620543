// Each system's mapping from what its runs observed to the spec's variables (no Valkey, no TLC: the
// mappings are pure). The lines hold the observation, never the model's prediction: a step whose real
// state differs from the prediction is logged as observed, and the run's own prediction of where TLC
// rejects it is that step. Pause claims what the replica itself ran, not what the twin asked for.
import { describe, expect, it } from 'vitest';
import type { FencingEvent } from '../../models/fencing/index.js';
import { propsObservedTrace } from '../../properties/fencing/observed.js';
import type { StepRecord } from '../../properties/fencing/run.js';
import { drillTraces } from '../../src/systems/fencing/failover/tracecheck.js';
import type { CallRecord } from '../../src/systems/fencing/cluster-matrix/drills/outcomes.js';
import { initialState, type FencingState } from '../../src/systems/fencing/state.js';
import { observedVars, tourObservedTrace } from '../../src/systems/fencing/tracecheck.js';
import { pauseClaim, pauseObservation, PENDING_VIEW } from '../../src/systems/pause/tracecheck.js';
import type { RealView } from '../../src/systems/pause/drive/observe.js';
import { DEFAULT_BOUNDS } from '../../src/systems/fencing/state.js';
import { claimsOf, type ObservedStep } from '../../src/seam/tracecheck/format.js';

const s0 = initialState(DEFAULT_BOUNDS);
const acquired: FencingState = { ...s0, oldLease: { owner: 'p1', gen: 1 }, oldGen: 1, lastIssued: 1 };
const acquireO: FencingEvent = { type: 'AcquireO', p: 'p1' };
const rec = (event: FencingEvent | undefined, status: StepRecord['status'], predicted: FencingState, observed: FencingState): StepRecord => ({
  intent: 'test',
  ...(event && { event }),
  status,
  note: '',
  predicted,
  observed,
});

describe('fencing: props and tour runs as observed traces', () => {
  it("logs the observed keyspace and records, not the model's prediction, and predicts the first step they part", () => {
    // Step 2: the real system issued generation 2 where the model predicted a refusal (the lease was held).
    const twoOwners: FencingState = { ...acquired, oldLease: { owner: 'p2', gen: 2 }, oldGen: 2, lastIssued: 2 };
    const t = propsObservedTrace(
      { initial: s0, records: [rec(acquireO, 'applied', acquired, acquired), rec({ type: 'AcquireO', p: 'p2' }, 'applied', acquired, twoOwners)] },
      { id: 'x', bounds: DEFAULT_BOUNDS },
    );
    expect(t.steps).toHaveLength(3);
    expect(t.steps[0]!.vars).toEqual(observedVars(s0));
    expect(t.steps[2]!.vars).toEqual(observedVars(twoOwners));
    expect(t.steps[2]!.vars!.oldLease).toBe('[owner |-> p2, gen |-> 2]');
    expect(t.steps[2]!.vars).not.toHaveProperty('monoOk');
    expect(t.steps[2]!.action).toEqual({ name: 'AcquireO', args: ['p2'] });
    expect(t.predicted).toEqual({ step: 2, by: expect.any(String) });
    expect(t.constants).toBeUndefined();
  });

  it('a refused attempt is a stutter; a run the model explains predicts acceptance', () => {
    const t = propsObservedTrace(
      { initial: s0, records: [rec(acquireO, 'applied', acquired, acquired), rec({ type: 'AcquireO', p: 'p2' }, 'refused', acquired, acquired)] },
      { id: 'x', bounds: DEFAULT_BOUNDS },
    );
    expect(t.steps[2]).toMatchObject({ action: [], stutter: true });
    expect(t.predicted!.step).toBeNull();
  });

  it('a tour path: transitions claim their event, a refused attempt that changed the keyspace is a stutter the model does not give', () => {
    const t = tourObservedTrace(
      [
        { attempt: null, decision: null, state: s0 },
        { attempt: { kind: 'acquire' }, decision: { kind: 'transition', event: acquireO }, state: acquired },
        { attempt: { kind: 'acquire' }, decision: { kind: 'refused' }, state: { ...acquired, oldGen: 2 } },
      ],
      { id: 'tour', bounds: DEFAULT_BOUNDS, mutant: 'Mx' },
    );
    expect(t).toMatchObject({ source: 'tour', mutant: 'Mx', predicted: { step: 2 } });
    expect(t.steps[1]!.action).toEqual({ name: 'AcquireO', args: ['p1'] });
    expect(t.steps[2]).toMatchObject({ action: [], stutter: true, vars: { oldGen: '2' } });
  });
});

describe('pause: a walk step as a trace line', () => {
  const view: RealView = {
    takenAt: 0,
    readAt: 0,
    valkey: { paused: true, version: 1 },
    subscriptions: 2,
    replicas: {
      r1: { status: { ready: true, paused: true, version: 1, ageMs: 3, reconciles: 0, reconcileFailures: 0, eventsApplied: 0, eventsIgnored: 0 }, answer: 'paused', received: [] },
      r2: { status: { ready: false, paused: null, version: null, ageMs: null, reconciles: 0, reconcileFailures: 0, eventsApplied: 0, eventsIgnored: 0 }, answer: 'unavailable', received: [] },
    },
  };

  it("observes the replicas' own status, the messages held, Valkey's keys and the driver's calls", () => {
    const line = pauseObservation(['r1', 'r2'], view, {
      calls: 2,
      begun: [{ by: 'r2', paused: false }],
      phases: { r1: ['subscribe', 'load', 'ready'], r2: ['subscribe'] },
      held: { r1: [], r2: [{ paused: true, version: 1 }] },
    });
    expect(line.vars).toEqual({
      calls: '2',
      snap: '(r1 :> [paused |-> TRUE, version |-> 1] @@ r2 :> None)',
      ready: '(r1 :> TRUE @@ r2 :> FALSE)',
      subscribed: '(r1 :> TRUE @@ r2 :> TRUE)',
      chan: '(r1 :> {} @@ r2 :> {[paused |-> TRUE, version |-> 1]})',
    });
    expect(line.views).toMatchObject({ Version: '1', Paused: 'TRUE', [PENDING_VIEW]: '{[by |-> r2, paused |-> FALSE]}', 'Answer(r1)': '[served |-> TRUE, paused |-> TRUE]' });
    // An unavailable answer is not evidence (real time also ages a snapshot): not logged.
    expect(line.views).not.toHaveProperty('Answer(r2)');
  });

  it('claims the start phase the replica ran, not the one the twin asked for; a message that never came is a stutter', () => {
    expect(pauseClaim({ type: 'Load', r: 'r1' }, { ran: 'ready' })).toEqual({ action: { name: 'Ready', args: ['r1'] } });
    expect(pauseClaim({ type: 'Deliver', r: 'r1', e: { paused: true, version: 2 } }, { taken: null })).toEqual({ action: [], stutter: true });
    expect(pauseClaim({ type: 'CommitSetPaused', c: { by: 'r2', paused: true, version: 0 } }, {})).toEqual({
      action: { name: 'CommitSetPaused', args: [{ in: 'pending', such: 'fc_arg.by = r2 /\\ fc_arg.paused = TRUE' }] },
    });
  });
});

describe('failover: a drill session as a trace', () => {
  let t = 0;
  const call = (op: CallRecord['op'], owner: string, outcome: CallRecord['outcome'], reply?: CallRecord['reply'], gen?: number): CallRecord => ({
    session: 's1',
    op,
    owner,
    ...(gen !== undefined && { gen }),
    outcome,
    ...(reply && { reply }),
    startedAt: ++t,
    endedAt: ++t,
  });

  it("acquires, releases, unknown outcomes and the failover in call order; the drill's checks predict the step", () => {
    const calls = [
      call('acquire', 'p0', 'applied', { kind: 'ok', gen: 1 }),
      call('release', 'p0', 'applied', { kind: 'released' }, 1),
      call('acquire', 'p1', 'unknown'),
      call('acquire', 'p2', 'applied', { kind: 'ok', gen: 1 }),
    ];
    const [tr] = drillTraces(
      { sessions: [{ session: 's1', victim: true, calls, final: { lease: { owner: 'p2', gen: 1 }, counter: 1 } }], killAt: calls[2]!.startedAt, takeoverAt: calls[2]!.endedAt },
      { id: 'drill' },
    );
    expect(tr!.constants).toEqual({ Pods: '{p0, p1, p2}', MaxGen: '4' });
    const label = (s: ObservedStep) => (s.action === undefined ? 'init' : [...(claimsOf(s) ?? []).map((a) => a.name), ...(s.stutter ? ['stutter'] : [])].join('|'));
    expect(tr!.steps.map(label)).toEqual(['init', 'Acquire', 'WaitAcked', 'Release', 'Failover', 'Acquire|stutter', 'WaitTimedOut|stutter', 'Acquire', 'WaitAcked', 'stutter']);
    expect(tr!.steps[1]!.vars).toEqual({ primary: '[lease |-> [owner |-> p0, gen |-> 1], gen |-> 1]' });
    expect(tr!.steps[2]!.views).toEqual({ 'held[p0]': '1' });
    // Generation 1 told twice: the drill's Inv_Monotonic check fires at p2's acquire, its first line.
    expect(tr!.predicted!.step).toBe(7);
  });
});
