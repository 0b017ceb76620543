import { describe, expect, it } from 'vitest';
import {
  EFFECTS,
  INIT_LIMITER_INVARIANT_NAMES,
  INIT_LIMITER_MUTATION_POINTS,
  type InitLimiterEffect,
  type InitLimiterInvariantName,
  type InitLimiterModelEvent,
  type InitLimiterOverrides,
} from '../../models/init-limiter/index.js';
import { INIT_LIMITER_BASE_BOUNDS, initialInitLimiterState, initLimiterKey, type InitLimiterModelState } from '../../src/systems/init-limiter/model-state.js';
import { initLimiterSystem } from '../../src/systems/init-limiter/system.js';
import { loadManifest, mutantsFor, type MutantEntry } from '../../src/core/manifest.js';
import { importModelPatch, mutatedSystem } from '../../src/seam/model-patch.js';
import { readSystemEvidence } from '../../src/seam/evidence.js';
import { exploreSystem } from '../../src/seam/explore.js';
import type { ModelSystem } from '../../src/seam/system.js';

type Sys = ModelSystem<InitLimiterModelState, InitLimiterModelEvent>;
const sys = initLimiterSystem();
// I1–I12 are the manifest's (mutants/manifest.json); each model patch is mutants/init-limiter/model/<id>.ts.
const MUTANTS = mutantsFor(loadManifest(), 'model', 'init-limiter');
const init = initialInitLimiterState(INIT_LIMITER_BASE_BOUNDS);
const after = (s: InitLimiterModelState, label: string, system: Sys = sys): InitLimiterModelState[] =>
  system
    .successors(s)
    .filter((x) => system.label(x.event) === label)
    .map((x) => x.state);
const one = (s: InitLimiterModelState, label: string, system: Sys = sys): InitLimiterModelState => {
  const next = after(s, label, system);
  if (next.length !== 1) throw new Error(`${label}: ${next.length} successors in ${initLimiterKey(s)}`);
  return next[0]!;
};
const walk = (labels: readonly string[], system: Sys = sys): InitLimiterModelState => labels.reduce((s, l) => one(s, l, system), init);
const enabled = (s: InitLimiterModelState, label: string): boolean => after(s, label).length > 0;

/** TLC's figures (tla/init-limiter/README.md; evidence/tlc/init-limiter/). */
const TLC_TRACE_LENGTH: Readonly<Record<string, number>> = { I1: 4, I2: 6, I3: 6, I4: 5, I5: 4, I6: 5, I7: 7, I8: 6, I9: 8, I10: 7, I11: 5, I12: 4, I17: 2 };

/** As a mutant's TLC config: TypeOK and `invariant` checked alone, the first broken state breadth-first. */
function firstViolation(system: Sys, invariant: string) {
  const typeOk = system.invariants.TypeOK!;
  const inv = system.invariants[invariant]!;
  const x = exploreSystem(system, { invariants: [], until: (s) => (invariant !== 'TypeOK' && !typeOk(s)) || !inv(s) });
  if (x.found < 0) return null;
  const path = x.pathTo(x.found);
  const last = path[path.length - 1]!.state;
  return { path, typeOk: typeOk(last), holds: inv(last) };
}

describe('the init-limiter twin (models/init-limiter) at the base bounds', () => {
  it("reaches exactly TLC's 2,455 distinct states, 19,746 generated, depth 12, and breaks no invariant", () => {
    const x = exploreSystem(sys);
    expect({ distinct: x.distinct, generated: x.generated, depth: x.depth }).toEqual({ distinct: 2455, generated: 19746, depth: 12 });
    expect(x.verdicts.filter((v) => !v.holds)).toEqual([]);
    expect(x.verdicts.map((v) => v.name)).toEqual(readSystemEvidence('init-limiter', 'base').evidence!.invariants);
  });

  it("gives TLC's figures at larger bounds too (tla/init-limiter/README.md, growth table), every invariant holding", () => {
    const at = (b: Partial<typeof INIT_LIMITER_BASE_BOUNDS>) => exploreSystem(initLimiterSystem({ ...INIT_LIMITER_BASE_BOUNDS, ...b }));
    for (const [b, figures] of [
      [{ maxVersion: 3 }, { distinct: 4918, generated: 40554, depth: 13 }],
      [{ chunks: 3 }, { distinct: 3091, generated: 24800, depth: 13 }],
      [{ maxQueued: 2 }, { distinct: 2948, generated: 23632, depth: 13 }],
    ] as const) {
      const x = at(b);
      expect({ distinct: x.distinct, generated: x.generated, depth: x.depth }, JSON.stringify(b)).toEqual(figures);
      expect(
        x.verdicts.filter((v) => !v.holds),
        JSON.stringify(b),
      ).toEqual([]);
    }
  });

  it('an up-to-date stream gets the small reply without a slot; a stream without data acquires a slot before serializing', () => {
    expect(walk(['Connect(s1,1)', 'Decide(s1)'])).toMatchObject({ cl: { s1: { phase: 'live', dl: null } }, holders: [], inUse: 0 });
    const full = walk(['Connect(s1,0)', 'Decide(s1)']);
    expect(full).toMatchObject({ cl: { s1: { phase: 'serializing', adm: 1, asked: 1, sent: 1, dl: null } }, holders: ['s1'], inUse: 1 });
    expect(after(init, 'Connect(s1,2)')).toEqual([]); // a basis the store never had
  });

  it('single-flights the peek per basis: a caller of the same basis joins the waiting read, one at the current version reads now', () => {
    expect(walk(['Connect(s1,0)', 'Publish', 'Connect(s2,0)']).cl.s2).toMatchObject({ phase: 'peeking', pv: 1 });
    const current = walk(['Connect(s1,0)', 'Publish', 'Connect(s2,2)']);
    expect(current.cl.s2).toMatchObject({ phase: 'peeking', pv: 2 });
    expect(one(current, 'Decide(s2)')).toMatchObject({ cl: { s2: { phase: 'live' } }, inUse: 0 });
  });

  it('reads the basis after admission and shares a serialization only between callers of one version', () => {
    expect(walk(['Connect(s1,0)', 'Publish', 'Decide(s1)']).cl.s1).toMatchObject({ pv: 0, adm: 2, asked: 2, sent: 2 });
    const same = walk(['Connect(s1,0)', 'Connect(s2,0)', 'Decide(s1)', 'Decide(s2)']);
    expect([same.cl.s1!.sent, same.cl.s2!.sent]).toEqual([1, 1]);
    const apart = walk(['Connect(s1,0)', 'Decide(s1)', 'Publish', 'Connect(s2,0)', 'Decide(s2)']);
    expect([apart.cl.s1!.sent, apart.cl.s2!.sent]).toEqual([1, 2]);
  });

  it('queues a full delivery when the slots are taken (without keeping its peek), sheds the next: a stream closed, a poll answered 503', () => {
    const busy = walk(['Poll(p1,0)', 'Poll(p2,0)', 'Connect(s1,0)', 'Decide(s1)']);
    expect(busy).toMatchObject({ cl: { s1: { phase: 'queued', pv: 0 } }, queue: ['s1'], inUse: 2 });
    const closed = one(one(busy, 'Connect(s2,0)'), 'Decide(s2)');
    expect(closed.cl.s2!.phase).toBe('off');
    expect(closed.holders).toEqual(['p1', 'p2']);
    const full = walk(['Connect(s1,0)', 'Connect(s2,0)', 'Decide(s1)', 'Decide(s2)', 'Poll(p1,0)']);
    expect(full.queue).toEqual(['p1']);
    expect(initLimiterKey(one(full, 'Poll(p2,0)'))).toBe(initLimiterKey(full)); // 503: the request ends, nothing changes
    expect(enabled(full, 'Admit(p1)')).toBe(false);
    const freed = one(full, 'Disconnect(s1)');
    expect(one(freed, 'Admit(p1)')).toMatchObject({ cl: { p1: { phase: 'sending', dl: 1 } }, queue: [], holders: ['p1', 's2'], inUse: 2 });
  });

  it('holds the slot across the send and gives it back exactly once, at the last byte; the deadline lives only during the delivery', () => {
    const sending = walk(['Connect(s1,0)', 'Decide(s1)', 'Handoff(s1)']);
    expect(sending).toMatchObject({ cl: { s1: { phase: 'sending', written: 0, dl: 1, captured: true } }, holders: ['s1'], inUse: 1 });
    const half = one(sending, 'Tick');
    expect(half.cl.s1).toMatchObject({ phase: 'sending', written: 1, dl: 1 });
    const live = one(half, 'Tick');
    expect(live).toMatchObject({ cl: { s1: { phase: 'live', dl: null } }, holders: [], inUse: 0 });
    expect(enabled(live, 'Tick')).toBe(false); // no deadline armed anywhere: no time step
    expect(one(live, 'Disconnect(s1)')).toMatchObject({ holders: [], inUse: 0 });
  });

  it("cuts a stalled send when its chunk's deadline passes, and releases its slot; a disconnect mid-send releases it too", () => {
    const sending = walk(['Connect(s1,0)', 'Decide(s1)', 'Handoff(s1)']);
    expect(one(one(sending, 'Stall(s1)'), 'Tick')).toMatchObject({ cl: { s1: { phase: 'off' } }, holders: [], inUse: 0, observed: [] });
    expect(one(sending, 'Disconnect(s1)')).toMatchObject({ cl: { s1: { phase: 'off' } }, holders: [], inUse: 0 });
  });

  it("arms a poll's deadline around its held slot and clears it when the handler returns; an up-to-date poll changes nothing", () => {
    const polling = walk(['Poll(p1,0)']);
    expect(polling).toMatchObject({ cl: { p1: { phase: 'sending', dl: 1 } }, holders: ['p1'], inUse: 1 });
    const back = one(polling, 'Tick');
    expect(back).toMatchObject({ cl: { p1: { phase: 'off', dl: null } }, holders: [], inUse: 0 });
    expect(initLimiterKey(one(back, 'Poll(p1,1)'))).toBe(initLimiterKey(back));
  });

  it('the manifest has a model mutant per mutation point (I1–I12, I17), each patch overriding exactly its own guard', async () => {
    expect(MUTANTS.map((m) => m.id)).toEqual(['I1', 'I2', 'I3', 'I4', 'I5', 'I6', 'I7', 'I8', 'I9', 'I10', 'I11', 'I12', 'I17']);
    expect(MUTANTS.map((m) => m.target)).toEqual([...INIT_LIMITER_MUTATION_POINTS]);
    expect(new Set(MUTANTS.map((m) => m.expectedInvariant)).size).toBe(13); // no two share one
    for (const m of MUTANTS) {
      expect(m.layers).toEqual({
        tla: { config: `tla/init-limiter/mutants/${m.id}.cfg` },
        model: { patch: `mutants/init-limiter/model/${m.id}.ts` },
        impl: { patch: `mutants/init-limiter/impl/${m.id}.ts` },
      });
      const o = (await importModelPatch(m, sys.overridable)) as InitLimiterOverrides;
      expect(Object.keys(o.guards ?? {})).toEqual([m.target]);
      expect(o.actions).toBeUndefined();
    }
  });
});

describe('the model mutants on the twin (machine.provide() of one override, at the constants the entry names)', () => {
  for (const m of MUTANTS) {
    it(`${m.id} (${m.target}) is killed by ${m.expectedInvariant}, shortest counterexample ${TLC_TRACE_LENGTH[m.id]} states like TLC's`, async () => {
      const ms = await mutatedSystem(m.constants ? sys.withConstants!(m.constants) : sys, m);
      expect(ms.name).toBe(`init-limiter/${m.id}`);
      const v = firstViolation(ms, m.expectedInvariant);
      expect(v).not.toBeNull();
      expect({ typeOk: v!.typeOk, holds: v!.holds, length: v!.path.length }).toEqual({ typeOk: true, holds: false, length: TLC_TRACE_LENGTH[m.id] });
      const ev = readSystemEvidence('init-limiter', m.id);
      if (ev.freshness.fresh) expect({ violated: ev.evidence!.violated, length: ev.evidence!.traceLength }).toEqual({ violated: m.expectedInvariant, length: v!.path.length });
      // The path is the mutated machine's: each step one of its own successors.
      for (let i = 1; i < v!.path.length; i++) {
        const step = v!.path[i]!;
        expect(ms.successors(v!.path[i - 1]!.state).some((n) => ms.label(n.event) === ms.label(step.event!) && ms.key(n.state) === ms.key(step.state))).toBe(true);
      }
    });
  }
});

/**
 * For every invariant, the small bug that turns it red: a manifest mutant where one expects it, a
 * model patch written here otherwise (a guard or an effect replaced). The base holds each one (above).
 */
const release: InitLimiterEffect = EFFECTS.Disconnect_Close;
const BUGS: Readonly<
  Record<InitLimiterInvariantName, { readonly why: string; readonly constants?: Readonly<Record<string, string>> } & ({ readonly mutant: string } | { readonly patch: InitLimiterOverrides })>
> = {
  TypeOK: { why: 'Publish without the MaxVersion bound', patch: { guards: { Publish_VersionsLeft: () => true } } },
  Inv_SlotsBound: { why: 'acquire without the slot bound', patch: { guards: { Limiter_SlotFree: () => true } } },
  Inv_QueueBound: { why: 'queue without the MaxQueued bound', patch: { guards: { Limiter_QueueRoom: () => true } } },
  Inv_ReleasedOnce: {
    why: 'a disconnect gives a slot back even when the client holds none (after its last byte)',
    patch: { actions: { Disconnect_Close: (s, ev, env) => ({ ...release(s, ev, env), inUse: s.inUse - 1 }) } },
  },
  Inv_NoLeakedSlot: { why: 'done read after the close', mutant: 'I2' },
  Inv_SendHoldsSlot: { why: 'slot released at the handoff', mutant: 'I1' },
  Inv_UpToDateNoSlot: { why: 'up-to-date reply charged a slot', mutant: 'I11' },
  Inv_UpToDateRecognised: { why: 'peek keyed by a fixed key', mutant: 'I4' },
  Inv_NoLostDelta: { why: 'the peek served after the wait', mutant: 'I5' },
  Inv_SerializeOwnVersion: { why: 'serialization keyed without the version', mutant: 'I3' },
  Inv_DeadlineScoped: { why: "a poll's deadline not cleared at return (I6; I7 breaks it too)", mutant: 'I6' },
  Inv_BoundedHold: { why: 'the deadline never reaches the socket', mutant: 'I12' },
  Inv_SteadyNeverCut: { why: 'flat per-write deadline', mutant: 'I8' },
  Inv_LiveNotCut: { why: 'deadline armed for the whole connection', mutant: 'I7' },
  Inv_KeepAliveNotCut: { why: "a poll's deadline not cleared at return", mutant: 'I6' },
  Inv_NoTornBasis: { why: 'idle timeout in the send loop', mutant: 'I9' },
  Inv_ShedClosed: { why: 'shed without closing', mutant: 'I10' },
  Inv_OffPassThrough: { why: 'the write deadline armed with the limiter disabled', patch: { guards: { Deadline_OnlyWhenEnabled: () => false } }, constants: { LimiterOn: 'FALSE' } },
};

describe('every invariant turns red on a small bug', () => {
  const byId = (id: string): MutantEntry => MUTANTS.find((m) => m.id === id)!;
  it('lists one bug per invariant of the spec', () => {
    expect(Object.keys(BUGS)).toEqual([...INIT_LIMITER_INVARIANT_NAMES]);
  });
  for (const name of INIT_LIMITER_INVARIANT_NAMES) {
    const bug = BUGS[name];
    it(`${name}: ${bug.why}`, async () => {
      const at = bug.constants ? sys.withConstants!(bug.constants) : sys;
      const buggy = 'mutant' in bug ? await mutatedSystem(at, byId(bug.mutant)) : at.withOverrides(bug.patch, `bug-${name}`);
      const v = firstViolation(buggy, name);
      expect(v, `${name} stays green`).not.toBeNull();
      expect(v!.holds).toBe(false);
    });
  }
});
