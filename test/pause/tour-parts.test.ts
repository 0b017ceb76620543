// The pause tour's parts that need no server: the driver's clock, the constants and bounds a tour
// or trace gives, the alphabet and the model's predictions of the three faults.
import { describe, expect, it } from 'vitest';
import { DriverClock } from '../../src/systems/pause/tour/clock.js';
import { PAUSE_BASE_BOUNDS } from '../../src/systems/pause/model-state.js';
import { pauseBounds, pauseConstants } from '../../src/systems/pause/system.js';
import { attemptLabel, pauseTourModel, tourKey } from '../../src/systems/pause/tour/model.js';

describe('the driver clock', () => {
  it('fires what is due, in due order, only when moved; a cleared timer never fires; fire() runs one now', () => {
    const c = new DriverClock();
    const seen: string[] = [];
    const t = c.timersOf('r1');
    t.set(() => seen.push('b'), 20);
    const a = t.set(() => seen.push('a'), 10);
    const gone = c.timersOf('r2').set(() => seen.push('x'), 5);
    c.timersOf('r2').clear(gone);
    expect(c.advance(9)).toEqual([]);
    expect(c.advance(11).map((x) => x.delay)).toEqual([10, 20]);
    expect(seen).toEqual(['a', 'b']);
    expect(c.now()).toBe(20);
    t.clear(a);
    const late = t.set(() => seen.push('late'), 1e9);
    c.fire(c.pending('r1').find((x) => x.id === late)!);
    expect(seen.at(-1)).toBe('late');
    expect(c.pending('r1')).toEqual([]);
  });
});

describe('pause constants and bounds', () => {
  it('reads Replicas as a count or a set, MaxCalls and MaxAge as integers; refuses the rest by name', () => {
    expect(pauseConstants(PAUSE_BASE_BOUNDS, { Replicas: '1' })).toEqual({ replicas: ['r1'], maxCalls: 2, maxAge: 0 });
    expect(pauseConstants(PAUSE_BASE_BOUNDS, { Replicas: '{r2, r1}', MaxCalls: '1', MaxAge: '1' })).toEqual({ replicas: ['r1', 'r2'], maxCalls: 1, maxAge: 1 });
    expect(() => pauseConstants(PAUSE_BASE_BOUNDS, { Replicas: '0' })).toThrow(/Replicas takes a count from 1 to 4/);
    expect(() => pauseConstants(PAUSE_BASE_BOUNDS, { MaxCalls: '5' })).toThrow(/MaxCalls takes an integer from 0 to 4/);
    expect(() => pauseConstants(PAUSE_BASE_BOUNDS, { Pods: '2' })).toThrow(/pause has no constant Pods/);
    expect(pauseBounds({ replicas: ['r1'], maxCalls: 2, maxAge: 0 })).toEqual({ replicas: ['r1'], maxCalls: 2, maxAge: 0 });
    expect(() => pauseBounds({ replicas: ['r1', 'r1'], maxCalls: 2, maxAge: 0 })).toThrow(RangeError);
    expect(() => pauseBounds({ replicas: ['r1'], maxCalls: -1, maxAge: 0 })).toThrow(/maxCalls must be a non-negative integer/);
  });
});

describe('the tour model', () => {
  const m = pauseTourModel({ replicas: ['r1'], maxCalls: 2, maxAge: 0 });
  const step = (s: ReturnType<typeof m.initialStates>[number], label: string) => {
    const a = m.attempts(s).find((x) => attemptLabel(x) === label);
    if (!a) throw new Error(`no attempt ${label}`);
    return m.predict(s, a);
  };
  it('lists every action instance once (one Tick), the two read faults per replica and an overlap per pending call', () => {
    const s0 = m.initialStates()[0]!;
    const labels = m.attempts(s0).map(attemptLabel);
    expect(labels.filter((l) => l === 'Tick')).toHaveLength(1);
    expect(labels).toEqual(expect.arrayContaining(['FailLoad(r1)', 'FailReconcile(r1)']));
    expect(new Set(labels).size).toBe(labels.length);
  });
  it('predicts a failed read as nothing changing, and an overlapped reconciliation as Reconcile · Commit · Deliver', () => {
    let s = m.initialStates()[0]!;
    for (const l of ['Subscribe(r1)', 'Load(r1)', 'Ready(r1)', 'BeginSetPaused(r1, TRUE)']) s = step(s, l).next;
    const failed = step(s, 'FailReconcile(r1)');
    expect(failed.decision).toEqual({ kind: 'failed' });
    expect(tourKey(failed.next)).toBe(tourKey(s));
    const o = step(s, 'ReconcileOverlapped(r1, [by |-> r1, paused |-> TRUE, version |-> 0])');
    expect(o.decision.kind).toBe('transition');
    expect({ snap: o.next.model.snap.r1, synced: o.next.model.synced.r1, chan: o.next.model.chan.r1, answer: o.next.replicas.r1!.answer }).toEqual({
      snap: { paused: true, version: 1 },
      synced: 0,
      chan: [],
      answer: 'paused',
    });
    expect(step(s, 'FailLoad(r1)').decision).toEqual({ kind: 'refused' });
  });
  it('predicts where each start-up waits from the variables: the subscribe gate, the load gate, the ready gate, started', () => {
    let s = m.initialStates()[0]!;
    const where = [s.replicas.r1!.gate];
    for (const l of ['Subscribe(r1)', 'Load(r1)', 'Ready(r1)']) {
      s = step(s, l).next;
      where.push(s.replicas.r1!.gate);
    }
    expect(where).toEqual(['subscribe', 'load', 'ready', 'started']);
    expect(s.replicas.r1!.loaded).toBe(true);
    expect(tourKey({ ...s, unpredicted: true })).not.toBe(tourKey(s));
  });
  it('predicts a call whose writes after the first are refused as its commit: a whole write has no second', () => {
    let s = m.initialStates()[0]!;
    for (const l of ['Subscribe(r1)', 'Load(r1)', 'Ready(r1)', 'BeginSetPaused(r1, TRUE)']) s = step(s, l).next;
    const c = '[by |-> r1, paused |-> TRUE, version |-> 0]';
    const later = step(s, `FailLaterWrite(${c})`);
    expect(later.decision).toEqual({ kind: 'transition', label: `FailLaterWrite(${c})` });
    expect(tourKey(later.next)).toBe(tourKey(step(s, `CommitSetPaused(${c})`).next));
    expect(
      m
        .attempts(m.initialStates()[0]!)
        .map(attemptLabel)
        .filter((l) => l.startsWith('FailLaterWrite')),
    ).toEqual([]);
  });
});
