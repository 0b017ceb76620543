/**
 * The init-limiter tour (src/systems/init-limiter/tour/) at verify's bound, on the reference server
 * over real HTTP: the unpatched server's real graph is the twin's, with the figures the model
 * predicts; mutants the bound reaches are killed by their expected invariant, read from
 * /_control/clients and the clients' sockets; a read-back that forgets a field the model keeps
 * (the limiter's holders, a client's stall) turns the conformance tour red; the served conform
 * report comes from the impl runner's unpatched run.
 */
import { describe, expect, it } from 'vitest';
import { loadManifest, mutantsFor, type MutantEntry } from '../../src/core/manifest.js';
import { runTour } from '../../src/seam/tour/tour.js';
import { TourUnavailableError } from '../../src/seam/tour/entry.js';
import { INIT_LIMITER_BASE_BOUNDS } from '../../src/systems/init-limiter/model-state.js';
import { initLimiterConstants } from '../../src/systems/init-limiter/system.js';
import { INIT_LIMITER_GATE_CONSTANTS, initLimiterTour, runInitLimiterTour } from '../../src/systems/init-limiter/tour/entry.js';
import { initLimiterTourSystem, type InitLimiterTourSystem } from '../../src/systems/init-limiter/tour/system.js';
import { systemEntry } from '../../src/registry/systems.js';
import { ControlClient } from '../../src/systems/init-limiter/drive/control-client.js';
import { smallRequest } from '../../src/systems/init-limiter/drive/http-wire.js';
import { StreamClient } from '../../src/systems/init-limiter/drive/stream-client.js';
import type { ClientsReadout } from '../../src/systems/init-limiter/server/client-views.js';
import { withServer } from './server-support.js';
import { loadInitLimiterPatch } from '../../src/systems/init-limiter/server/index.js';
import { projectRoot } from '../../src/core/project-root.js';
import { fencecheckCli } from '../support/cli.js';

const GATE = initLimiterConstants(INIT_LIMITER_BASE_BOUNDS, INIT_LIMITER_GATE_CONSTANTS);
/** One stream, one poll, one slot: the smallest bound with a shed, a stall, a kept-alive poll (3 s of tour). */
const SMALL = initLimiterConstants(INIT_LIMITER_BASE_BOUNDS, { ...INIT_LIMITER_GATE_CONSTANTS, Streams: '1', Polls: '1', MaxConcurrent: '1' });
const mutant = (id: string): MutantEntry => mutantsFor(loadManifest(), 'impl', 'init-limiter').find((m) => m.id === id)!;

/** The tour system with its read-back changed by `f` (a read-out that forgets something). */
function withRead(f: (s: Awaited<ReturnType<InitLimiterTourSystem['real']['read']>>['state']) => typeof s): InitLimiterTourSystem {
  const sys = initLimiterTourSystem({ bounds: SMALL });
  return {
    ...sys,
    real: {
      ...sys.real,
      read: async (i) => {
        const r = await sys.real.read(i);
        return { ...r, state: f(r.state) };
      },
    },
  };
}

describe('the per-client read-out (GET /_control/clients)', () => {
  it('is off in production: a 404 like every /_control path', async () => {
    await withServer({ limiter: { maxConcurrent: 1 } }, async (s) => {
      expect((await smallRequest(s.url, 'GET', '/_control/clients')).status).toBe(404);
    });
  });

  it('shows a stream parked at peek.return as the server holds it: peeking, its basis, the peek’s read, no slot', async () => {
    await withServer({ limiter: { maxConcurrent: 1 }, testSeams: true }, async (s) => {
      const ctl = new ControlClient(s.url);
      await ctl.hold('peek.return', 1, 's1');
      const c = await StreamClient.open(s.url, { basis: 0, client: 's1' });
      try {
        await ctl.wait('peek.return', { parked: 1 }, 10_000, 's1');
        const r = JSON.parse((await smallRequest(s.url, 'GET', '/_control/clients')).text) as ClientsReadout;
        expect(r.clients).toEqual([expect.objectContaining({ client: 's1', kind: 'stream', phase: 'peeking', basis: 0, pv: 1, open: true, deadline: null, inDelivery: false })]);
        expect({ slots: r.slotsInUse, holders: r.holders, version: r.version }).toEqual({ slots: 0, holders: [], version: 1 });
      } finally {
        c.disconnect();
      }
    });
  });
});

describe('the init-limiter tour on the reference server', () => {
  it('is the registered tour, with verify’s bound as its gate constants', async () => {
    expect(await systemEntry('init-limiter')!.tour!()).toBe(initLimiterTour);
    expect(initLimiterTour.gateConstants).toEqual({ Streams: '2', Polls: '0', MaxConcurrent: '2', MaxQueued: '0', Chunks: '1', PollChunks: '1' });
    expect(initLimiterTour.defaultConstants).toEqual({ Streams: '2', Polls: '1', MaxConcurrent: '2', MaxQueued: '0', Chunks: '1', PollChunks: '1' });
  });

  it('unpatched at one stream, one poll, one slot: the real graph is the model’s (37 states, 169 transitions, 608 refused attempts)', async () => {
    const { result } = await runInitLimiterTour({ bounds: SMALL });
    expect(result.failure, result.failure?.message).toBeNull();
    expect(result.equalToModel).toBe(true);
    expect({ states: result.states, transitions: result.transitions, refused: result.refused, attempts: result.attempts, errors: result.errors }).toEqual({
      states: 37,
      transitions: 169,
      refused: 608,
      attempts: 777,
      errors: 0,
    });
    expect(result.covered).toEqual({ states: 37, transitions: 169, refused: 608 });
    expect(result.reach).toBe('replay');
  }, 120_000);

  it('with a waiter (one stream, one poll, one slot, MaxQueued 1): the real graph is the model’s (60 states, 262 transitions, 998 refused attempts), the queue’s Admit and a queued disconnect included', async () => {
    const QUEUE = initLimiterConstants(INIT_LIMITER_BASE_BOUNDS, { ...INIT_LIMITER_GATE_CONSTANTS, Streams: '1', Polls: '1', MaxConcurrent: '1', MaxQueued: '1' });
    const r = await runTour(initLimiterTourSystem({ bounds: QUEUE }), { checks: { kind: 'conformance' }, concurrency: 2 });
    expect(r.failure, r.failure?.message).toBeNull();
    expect(r.equalToModel).toBe(true);
    expect({ states: r.states, transitions: r.transitions, refused: r.refused, attempts: r.attempts, errors: r.errors }).toEqual({
      states: 60,
      transitions: 262,
      refused: 998,
      attempts: 1_260,
      errors: 0,
    });
    expect(r.byAction.Admit).toMatchObject({ transitions: r.byAction.Admit!.modelTransitions });
    expect(r.byAction.Admit!.transitions).toBeGreaterThan(0);
  }, 240_000);

  it.each([
    ['I5', 'Inv_NoLostDelta', 3],
    ['I10', 'Inv_ShedClosed', 3],
    ['I6', 'Inv_KeepAliveNotCut', 3],
  ])(
    '%s is killed by %s after %i attempts (invariant mode, the real graph)',
    async (id, invariant, steps) => {
      const { result } = await runInitLimiterTour({ bounds: SMALL, mutant: mutant(id), saveTrace: false });
      expect(result.failure?.check, result.failure?.message).toBe(invariant);
      expect(result.failure!.path.length - 1).toBe(steps);
    },
    120_000,
  );

  it('a mutant the bound cannot reach (I3: one stream, no second serialization to share) holds', async () => {
    const { result } = await runInitLimiterTour({ bounds: SMALL, mutant: mutant('I3'), saveTrace: false });
    expect(result.failure).toBeNull();
    expect(result.equalToModel).toBe(true);
  }, 120_000);

  it('I4 is killed at the gate bound (two streams: one joins the other’s older peek) by Inv_UpToDateRecognised after 4 attempts', async () => {
    const { result } = await runInitLimiterTour({ bounds: GATE, mutant: mutant('I4'), saveTrace: false });
    expect(result.failure?.check, result.failure?.message).toBe('Inv_UpToDateRecognised');
    expect(result.failure!.path.length - 1).toBe(4);
  }, 120_000);

  it('a read-back that forgets the limiter’s holders goes red (Conformance at the first admission)', async () => {
    const r = await runTour(
      withRead((s) => ({ ...s, holders: [] })),
      { checks: { kind: 'conformance' }, concurrency: 2 },
    );
    expect(r.failure?.check).toBe('Conformance');
    expect(r.failure?.real).toMatch(/holders=\{\}/);
    expect(r.failure?.predicted).toMatch(/holders=\{(p1|s1)\}/);
  }, 120_000);

  it('a read-back that ignores a client’s stall goes red (Conformance at Stall)', async () => {
    const r = await runTour(
      withRead((s) => ({ ...s, cl: Object.fromEntries(Object.entries(s.cl).map(([c, x]) => [c, { ...x, reading: 'steady' as const }])) as typeof s.cl })),
      { checks: { kind: 'conformance' }, concurrency: 2 },
    );
    expect(r.failure?.check).toBe('Conformance');
    expect(r.failure?.attempt).toMatch(/^Stall\(/);
  }, 120_000);

  // What the model's state keeps of none: a client's data set, a reply's headers, the counters. Each
  // small bug leaves the real graph the model's; the read-back of what the clients received kills it.
  it.each([
    ['test/init-limiter/small-bugs/drop-first-delta.ts', 'ClientDataSet', /its data set is at version 1, the store at 2: 2 never received/],
    ['test/init-limiter/small-bugs/retry-after-zero.ts', 'ShedRetryAfter', /shed with Retry-After '0'/],
    ['mutants/init-limiter/impl/I15.ts', 'LimiterCounters', /1 double releases/],
  ])(
    'a server patched with %s is red on %s (conformance at one stream, one poll, one slot)',
    async (file, check, message) => {
      const patch = await loadInitLimiterPatch(file, projectRoot);
      const r = await runTour(initLimiterTourSystem({ bounds: SMALL, patch }), { checks: { kind: 'conformance' }, concurrency: 2 });
      expect(r.failure?.check, r.failure?.message).toBe(check);
      expect(r.failure!.message).toMatch(message);
    },
    120_000,
  );

  // The same checks in invariant mode: named as the invariant, the tour follows the real graph and
  // stops at the first finding of that check (before, only a conformance tour ran them).
  it.each([
    ['test/init-limiter/small-bugs/drop-first-delta.ts', 'ClientDataSet'],
    ['test/init-limiter/small-bugs/retry-after-zero.ts', 'ShedRetryAfter'],
    ['mutants/init-limiter/impl/I15.ts', 'LimiterCounters'],
  ])(
    'a server patched with %s is red on %s named alone (invariant mode at one stream, one poll, one slot)',
    async (file, check) => {
      const patch = await loadInitLimiterPatch(file, projectRoot);
      const r = await runTour(initLimiterTourSystem({ bounds: SMALL, patch }), { checks: { kind: 'invariant', invariant: check }, concurrency: 2 });
      expect(r.failure?.check, r.failure?.message).toBe(check);
    },
    120_000,
  );

  it('the limiter disabled, one FDv1 stream (/all): the real graph is the model’s (14 states, 32 transitions, 136 refused attempts); I17 (the deadline armed anyway) dies by Inv_OffPassThrough', async () => {
    const OFF = initLimiterConstants(INIT_LIMITER_BASE_BOUNDS, { ...INIT_LIMITER_GATE_CONSTANTS, Streams: '1', LimiterOn: 'FALSE', FDv1: '1' });
    const r = await runTour(initLimiterTourSystem({ bounds: OFF }), { checks: { kind: 'conformance' }, concurrency: 2 });
    expect(r.failure, r.failure?.message).toBeNull();
    expect(r.equalToModel).toBe(true);
    expect({ states: r.states, transitions: r.transitions, refused: r.refused, errors: r.errors }).toEqual({ states: 14, transitions: 32, refused: 136, errors: 0 });
    const { result } = await runInitLimiterTour({ bounds: OFF, mutant: mutant('I17'), saveTrace: false });
    expect(result.failure?.check, result.failure?.message).toBe('Inv_OffPassThrough');
  }, 120_000);

  it('the spec’s base config (2 chunks, a waiter) is not toured: not run, saying which bound is', async () => {
    await expect(runInitLimiterTour({ bounds: INIT_LIMITER_BASE_BOUNDS })).rejects.toThrow(TourUnavailableError);
    await expect(runInitLimiterTour({ bounds: INIT_LIMITER_BASE_BOUNDS })).rejects.toThrow(/maps Chunks = PollChunks = 1.*run conform with no --const \(its default bound\), --gate/);
  });

  it('conform with no --const tours the default bound (a poll), --gate verify’s (none): the first line says which; I5 dies at both', async () => {
    const [plain, gate] = await Promise.all([fencecheckCli(['conform', '--mutant', 'I5']), fencecheckCli(['conform', '--gate', '--mutant', 'I5'])]);
    expect(plain.out.split('\n')[0]).toMatch(/streams=\{s1, s2\} polls=\{p1\} maxConcurrent=2 maxQueued=0 maxVersion=2 chunks=1 pollChunks=1 limiterOn=true fdv1=\{\}, mutant I5/);
    expect(gate.out.split('\n')[0]).toMatch(/streams=\{s1, s2\} polls=\{\} maxConcurrent=2 maxQueued=0 maxVersion=2 chunks=1 pollChunks=1 limiterOn=true fdv1=\{\}, mutant I5/);
    expect([plain.code, gate.code], plain.err + gate.err).toEqual([1, 1]);
  });
});
