import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { nextState } from '../../../models/fencing/index.js';
import { createGate } from '../../../src/systems/fencing/gate/gate.js';
import { GATE_RULES, GATE_RULE_NAMES, GATE_STEPS, type GateStep } from '../../../src/systems/fencing/gate/rules.js';
import type { GateObservations } from '../../../src/systems/fencing/gate/observations.js';
import { DEFAULT_BOUNDS, MODES, NONE, PHASES, initialState, type FencingState, type Lease, type Pod } from '../../../src/systems/fencing/state.js';
import { loadManifest, mutantsFor } from '../../../src/core/manifest.js';

const b = DEFAULT_BOUNDS;
const lease = fc.oneof(fc.constant<Lease>({ owner: NONE, gen: 0 }), fc.record({ owner: fc.constantFrom<Pod>(...b.pods), gen: fc.integer({ min: 1, max: b.maxGen }) }));
const stateArb: fc.Arbitrary<FencingState> = fc.record({
  version: fc.tuple(...b.pods.map(() => fc.constantFrom(...PHASES))).map((vs) => Object.fromEntries(b.pods.map((p, i) => [p, vs[i]!]))),
  target: fc.constantFrom(...PHASES),
  oldLease: lease,
  newLease: lease,
  oldGen: fc.integer({ min: 0, max: b.maxGen }),
  newGen: fc.integer({ min: 0, max: b.maxGen }),
  backfilled: fc.boolean(),
  mode: fc.constantFrom(...MODES),
  lastIssued: fc.integer({ min: 0, max: b.maxGen }),
  monoOk: fc.boolean(),
});

/** What the real system would show the gate in this state (one session; the tagged pair hashes alike). */
function observe(s: FencingState): GateObservations {
  return {
    podPhases: { ...s.version },
    target: s.target,
    mode: s.mode,
    backfilled: s.backfilled,
    oldLeaseCensus: s.oldLease.owner === NONE ? 0 : 1,
    newLeaseCensus: s.newLease.owner === NONE ? 0 : 1,
    counters: [{ session: 'c:s', oldGen: s.oldGen, newGen: s.newGen }],
    keyslot: { keys: ['buzz:tunnel:{c:s}:lease', 'buzz:tunnel:{c:s}:generation'], slots: [42, 42] },
  };
}

describe('deployment gate', () => {
  it('decides every phase and door step exactly as the model guards it', () => {
    const gate = createGate();
    fc.assert(
      fc.property(stateArb, fc.constantFrom(...GATE_STEPS), (s, step: GateStep) => {
        expect(gate.decide(step, observe(s)).allowed).toBe(nextState(s, { type: step }, b) !== null);
      }),
      { numRuns: 3000 },
    );
  });

  it('names the rule that refuses, with the observation behind it', () => {
    const s: FencingState = { ...observeBase(), target: 'B', backfilled: true, oldLease: { owner: 'p2', gen: 3 } };
    const d = createGate().decide('AdvanceTarget', observe(s));
    expect(d.allowed).toBe(false);
    expect(d.refusedBy).toEqual([{ rule: 'AdvanceToC_Gate', reason: 'C-gate: 1 live old-keyspace lease(s) observed' }]);
  });

  it('refuses the door without a pre-G3 KEYSLOT check, and on a mis-tagged pair', () => {
    const s: FencingState = { ...observeBase(), target: 'C', version: { p1: 'C', p2: 'C', p3: 'C' }, backfilled: true };
    const gate = createGate();
    expect(gate.decide('EnterCompatible', observe(s)).allowed).toBe(true);
    expect(gate.decide('EnterCompatible', { ...observe(s), keyslot: null }).refusedBy.map((r) => r.rule)).toEqual(['EnterCompatible_KeyslotPair']);
    const split = { ...observe(s), keyslot: { keys: ['a', 'b'] as const, slots: [1, 2] as const } };
    expect(gate.decide('EnterCompatible', split).allowed).toBe(false);
  });

  it('a mutated gate is the same gate without exactly the mutant target rule', () => {
    const fencing = mutantsFor(loadManifest(), 'impl').filter((m) => ['M4', 'M6', 'M7', 'M8', 'M9'].includes(m.id));
    expect(fencing).toHaveLength(5);
    for (const m of fencing) {
      expect(GATE_RULE_NAMES).toContain(m.target);
      const g = createGate({ drop: [m.target as (typeof GATE_RULE_NAMES)[number]] });
      const step = GATE_RULES.find((r) => r.name === m.target)!.step;
      expect(g.dropped).toEqual([m.target]);
      // Any observation the full gate refuses only by that rule, the mutated gate allows.
      const obs = witness(m.target);
      expect(
        createGate()
          .decide(step, obs)
          .refusedBy.map((r) => r.rule),
      ).toEqual([m.target]);
      expect(g.decide(step, obs).allowed).toBe(true);
    }
    expect(() => createGate({ drop: ['NoSuchRule' as never] })).toThrow(/no gate rule/);
  });
});

function observeBase(): FencingState {
  return { ...initialState(), version: { p1: 'B', p2: 'B', p3: 'B' }, target: 'B', oldGen: 2, newGen: 2, lastIssued: 2 };
}

/** An observation that only the named rule refuses. */
function witness(rule: string): GateObservations {
  const s = observeBase();
  switch (rule) {
    case 'AdvanceToC_Gate':
      return observe({ ...s, backfilled: false });
    case 'RollbackToO_NewLeaseFree':
      return observe({ ...s, target: 'A', version: { p1: 'A', p2: 'A', p3: 'A' }, newLease: { owner: 'p1', gen: 2 } });
    case 'RollbackToO_ReverseMerged':
      return observe({ ...s, target: 'A', version: { p1: 'A', p2: 'A', p3: 'A' }, oldGen: 1, newGen: 2 });
    case 'Rollback_NoPodAboveTarget':
      return observe({ ...s, target: 'A', version: { p1: 'B', p2: 'A', p3: 'A' } });
    case 'EnterCompatible_FleetOnC':
      return observe({ ...s, backfilled: true });
    default:
      throw new Error(`no witness for ${rule}`);
  }
}
