import { describe, expect, it } from 'vitest';
import { DEFAULT_BOUNDS, NONE, canonicalKey, initialState, type FencingState } from '../../../src/systems/fencing/state.js';
import { loadManifest, mutantsFor } from '../../../src/core/manifest.js';
import { fencingExplore } from '../../support/fencing-explore.js';
import { GUARD_NAMES, allEvents, applyEffect, enabledEvents, eventLabel, machineFor, nextState, snapshotOf, type FencingEvent } from '../../../models/fencing/index.js';

const b = DEFAULT_BOUNDS;
const init = initialState(b);
const run = (s: FencingState, ...events: FencingEvent[]): FencingState =>
  events.reduce((acc, ev) => {
    const next = nextState(acc, ev, b);
    if (next === null) throw new Error(`${eventLabel(ev)} refused in ${canonicalKey(acc)}`);
    return next;
  }, s);

/** Init → A → B with p1 holding an old-key lease acquired under A, every pod on B. */
const fleetOnBWithOldLease = (): FencingState => {
  let s = run(init, { type: 'AdvanceTarget' });
  for (const p of b.pods) s = run(s, { type: 'UpgradePod', p });
  s = run(s, { type: 'AcquireA', p: 'p1' }, { type: 'AdvanceTarget' });
  for (const p of b.pods) s = run(s, { type: 'UpgradePod', p });
  return s;
};

describe('fencing machine API', () => {
  it('offers every event with every pod', () => {
    const events = allEvents(b);
    expect(events).toHaveLength(7 * 3 + 9);
    expect(events).toContainEqual({ type: 'AcquireB', p: 'p3' });
    expect(events).toContainEqual({ type: 'Enable' });
  });

  it('enables exactly the O acquisitions and AdvanceTarget in Init', () => {
    expect(enabledEvents(init, b).map(eventLabel)).toEqual(['AcquireO(p1)', 'AcquireO(p2)', 'AcquireO(p3)', 'AdvanceTarget']);
  });

  it('AcquireO issues oldGen+1 once (the root transition runs once across both regions)', () => {
    const s = run(init, { type: 'AcquireO', p: 'p2' });
    expect(s.oldLease).toEqual({ owner: 'p2', gen: 1 });
    expect(s.oldGen).toBe(1);
    expect(s.lastIssued).toBe(1);
    expect(s.monoOk).toBe(true);
    expect(nextState(s, { type: 'AcquireO', p: 'p1' }, b)).toBeNull();
  });

  it('AcquireB refuses while an old-key lease lives; MigrateB moves it with the same generation', () => {
    const s = fleetOnBWithOldLease();
    expect(s.oldLease).toEqual({ owner: 'p1', gen: 1 });
    expect(nextState(s, { type: 'AcquireB', p: 'p2' }, b)).toBeNull();
    expect(nextState(s, { type: 'MigrateB', p: 'p2' }, b)).toBeNull();
    const m = run(s, { type: 'MigrateB', p: 'p1' });
    expect(m.oldLease.owner).toBe(NONE);
    expect(m.newLease).toEqual({ owner: 'p1', gen: 1 });
    expect(m.lastIssued).toBe(s.lastIssued);
  });

  it('applyEffect ignores the guard: AcquireB over a live old-key lease forks authority', () => {
    const s = fleetOnBWithOldLease();
    const forced = applyEffect(s, { type: 'AcquireB', p: 'p2' }, b);
    expect(forced.oldLease.owner).toBe('p1');
    expect(forced.newLease).toEqual({ owner: 'p2', gen: 2 });
  });

  it('applyEffect refuses an effect the spec leaves undefined (no phase after C, none before O)', () => {
    expect(() => applyEffect(init, { type: 'RollbackPhase' }, b)).toThrow(RangeError);
    expect(() => applyEffect({ ...init, target: 'C' }, { type: 'AdvanceTarget' }, b)).toThrow(RangeError);
    expect(applyEffect({ ...init, target: 'B', backfilled: true }, { type: 'RollbackPhase' }, b)).toMatchObject({ target: 'A', backfilled: false });
  });

  it('the C-gate needs the backfill and a drained old keyspace', () => {
    const s = fleetOnBWithOldLease();
    expect(nextState(s, { type: 'AdvanceTarget' }, b)).toBeNull();
    const backfilled = run(s, { type: 'Backfill' });
    expect(backfilled.newGen).toBe(1);
    expect(nextState(backfilled, { type: 'AdvanceTarget' }, b)).toBeNull();
    expect(run(backfilled, { type: 'ExpireOld' }, { type: 'AdvanceTarget' }).target).toBe('C');
  });

  it('a mutant override applied via provide() changes exactly its guard', () => {
    const s = fleetOnBWithOldLease();
    const m1 = { guards: { AcquireB_OldLeaseFree: () => true } };
    expect(nextState(s, { type: 'AcquireB', p: 'p2' }, b, m1)?.newLease.owner).toBe('p2');
    expect(nextState(s, { type: 'AcquireB', p: 'p2' }, b)).toBeNull();
    // Exactly its guard: on this state and on the two around it, every other event has the same
    // successor (or refusal) with and without the override; only the AcquireB instances differ.
    const differs: string[] = [];
    for (const st of [s, run(s, { type: 'MigrateB', p: 'p1' }), run(s, { type: 'Backfill' })]) {
      for (const ev of allEvents(b)) {
        const [plain, mutated] = [nextState(st, ev, b), nextState(st, ev, b, m1)];
        if ((plain && canonicalKey(plain)) !== (mutated && canonicalKey(mutated))) differs.push(`${eventLabel(ev)} in ${st.oldLease.owner === NONE ? 'old-free' : 'old-held'}`);
      }
    }
    expect(differs.sort()).toEqual([
      'AcquireB(p1) in old-held',
      'AcquireB(p1) in old-held',
      'AcquireB(p2) in old-held',
      'AcquireB(p2) in old-held',
      'AcquireB(p3) in old-held',
      'AcquireB(p3) in old-held',
    ]);
  });

  it('an effect override also moves the MaxGen bound with it (the bound guards the issued generation)', () => {
    let s = run(init, { type: 'AcquireO', p: 'p1' }, { type: 'ExpireOld' });
    for (let i = 0; i < 3; i++) s = run(s, { type: 'AcquireO', p: 'p1' }, { type: 'ExpireOld' });
    expect(s.oldGen).toBe(4);
    expect(nextState(s, { type: 'AcquireO', p: 'p1' }, b)).toBeNull(); // 5 > MaxGen
    const reissue = { actions: { AcquireO_Issue: (x: FencingState) => ({ ...x, lastIssued: 1, monoOk: false, oldLease: { owner: 'p1' as const, gen: 1 } }) } };
    expect(nextState(s, { type: 'AcquireO', p: 'p1' }, b, reissue)?.oldLease.gen).toBe(1);
  });

  it('nothing leaves enabled (A3)', () => {
    const enabled: FencingState = { ...init, version: { p1: 'C', p2: 'C', p3: 'C' }, target: 'C', backfilled: true, mode: 'enabled' };
    const events = enabledEvents(enabled, b).map((e) => e.type);
    expect(events).not.toContain('RevertDisabled');
    expect(events).not.toContain('RollbackPhase');
    expect(events).toEqual(['AcquireC', 'AcquireC', 'AcquireC']);
    // Not just that one state: on every reachable enabled state, every enabled event keeps the mode
    // enabled, the fleet and target on C (the one-way door).
    const reached = [...fencingExplore(b).states].filter((x) => x.mode === 'enabled');
    expect(reached.length).toBeGreaterThan(1);
    for (const x of reached) {
      for (const ev of enabledEvents(x, b)) {
        const y = nextState(x, ev, b)!;
        expect({ mode: y.mode, target: y.target, version: y.version }, `${eventLabel(ev)} in ${canonicalKey(x)}`).toEqual({ mode: 'enabled', target: 'C', version: { p1: 'C', p2: 'C', p3: 'C' } });
      }
    }
  });

  it('a snapshot built from a state sits in the regions its variables name', () => {
    const s: FencingState = { ...init, target: 'B', mode: 'compatible' };
    expect(snapshotOf(machineFor(b), s).value).toEqual({ mode: 'compatible', target: 'B' });
  });

  it('GUARD_NAMES names every fencing mutant target of the manifest', () => {
    const targets = mutantsFor(loadManifest(), 'model', 'fencing').map((m) => m.target);
    expect(targets).toHaveLength(9);
    for (const t of targets) expect(GUARD_NAMES).toContain(t);
  });
});
