// The pause tour (src/systems/pause/tour/) on real replicas, real SetPaused and a real Valkey, at a
// small bound (Replicas = {r1}, MaxCalls = 2: 180 states, 2,008 attempts; the base config's 15,268
// states take minutes and are `fencecheck conform --system pause`'s). The unpatched code conforms;
// P7–P9, the bugs only the tour reaches, die by their expected invariant; and each of the tour's own
// checks turns red on the small bug written for it here.
import { describe, expect, it } from 'vitest';
import { loadManifest, mutantsFor } from '../../src/core/manifest.js';
import { runTour } from '../../src/seam/tour/tour.js';
import { encodeEvent, PauseReplica, type PausePatch, type SetPausedFn } from '../../src/systems/pause/index.js';
import type { PauseBounds } from '../../src/systems/pause/model-state.js';
import { runPauseTour } from '../../src/systems/pause/tour/entry.js';
import { openPauseTourRig } from '../../src/systems/pause/tour/rig.js';
import { runPauseWidthPasses } from '../../src/systems/pause/tour/widths.js';
import { pauseTourSystem } from '../../src/systems/pause/tour/system.js';
import { attemptLabel } from '../../src/systems/pause/tour/model.js';
import { pauseTourTrace } from '../../src/systems/pause/tour/trace.js';
import { pauseReplayer } from '../../src/systems/pause/tour/replay.js';
import { pauseSystem } from '../../src/systems/pause/system.js';
import { replayTrace } from '../../src/trace/replay.js';
import { ReplayInputError } from '../../src/seam/replay.js';
import type { AnySystem } from '../../src/registry/systems.js';
import { fencecheckCli } from '../support/cli.js';

const SMALL: PauseBounds = { replicas: ['r1'], maxCalls: 2, maxAge: 0 };

async function conformWith(patch: PausePatch, bounds: PauseBounds = SMALL) {
  const rig = await openPauseTourRig();
  try {
    return await runTour(pauseTourSystem({ rig, bounds, patch }), { checks: { kind: 'conformance' } });
  } finally {
    await rig.close();
  }
}

describe('the pause tour (real Valkey)', () => {
  it('the unpatched code conforms: every state, transition and refused attempt, the graph equal to the model', async () => {
    const { result } = await runPauseTour({ bounds: SMALL, saveTrace: false });
    expect(result.failure).toBeNull();
    expect({ states: result.states, attempts: result.attempts, errors: result.errors, equal: result.equalToModel }).toEqual({ states: 180, attempts: 2052, errors: 0, equal: true });
    expect(result.covered).toEqual({ states: result.model.states, transitions: result.model.transitions, refused: result.model.refused });
    // The faults the spec has no action for were really taken (failed reads, overlapped reconciliations), not only refused.
    expect(result.model.byAction.FailLoad!.refused).toBeGreaterThan(0);
    expect(result.model.byAction.FailReconcile!.refused).toBeGreaterThan(0);
    expect(result.model.byAction.ReconcileOverlapped!.transitions).toBeGreaterThan(0);
    expect(result.transitions).toBeGreaterThan(result.covered.transitions);
  });

  it('P7–P11, P13 and P14 (manifest entries) are killed by their expected invariant, each at the attempt the walks never make', async () => {
    const entries = mutantsFor(loadManifest(), 'impl', 'pause').filter((m) => ['P7', 'P8', 'P9', 'P10', 'P11', 'P13', 'P14'].includes(m.id));
    expect(entries.map((m) => [m.id, m.expectedInvariant])).toEqual([
      ['P7', 'Inv_FailClosed'],
      ['P8', 'Inv_OnlyCommitted'],
      ['P9', 'Inv_NoRevert'],
      ['P10', 'Inv_NoMissedEvent'],
      ['P11', 'Inv_ReadyAfterSnapshot'],
      ['P13', 'Inv_ServesFresh'],
      ['P14', 'Inv_ServesFresh'],
    ]);
    const last: Record<string, string> = {};
    for (const m of entries) {
      const { result } = await runPauseTour({ bounds: SMALL, mutant: m, saveTrace: false });
      expect(result.failure?.check, m.id).toBe(m.expectedInvariant);
      const step = result.failure!.path.at(-1)!;
      last[m.id] = step.attempt === null ? 'Init' : attemptLabel(step.attempt);
    }
    expect(last.P7).toBe('FailReconcile(r1)');
    expect(last.P8).toMatch(/^CommitSetPaused\(/);
    expect(last.P9).toMatch(/^ReconcileOverlapped\(r1, /);
    // Two writes instead of one transaction: only a refusal of the second write (a fault at the command level) shows it.
    expect(last.P10).toMatch(/^FailLaterWrite\(/);
    // A failed load whose retry waits at the ready gate: only a read-back of the start-up tells it from the load gate.
    expect(last.P11).toBe('Ready(r1)');
    // The other side of the answer: a fresh snapshot an event (here the caller's own write) brought, not served (P13) or served with the last sync's value (P14).
    expect(last.P13).toMatch(/^(CommitSetPaused|FailLaterWrite)\(/);
    expect(last.P14).toMatch(/^(CommitSetPaused|FailLaterWrite)\(/);
  });

  it("a counterexample replays: P9's trace breaks Inv_NoRevert on the real code at the step it predicted; a step the tour cannot take is refused before anything starts", async () => {
    const m = mutantsFor(loadManifest(), 'impl', 'pause').find((x) => x.id === 'P9')!;
    const { result } = await runPauseTour({ bounds: SMALL, mutant: m, saveTrace: false });
    const trace = pauseTourTrace(result.failure!.path, { bounds: SMALL, mutant: 'P9', violated: result.failure!.check });
    pauseReplayer.check(trace);
    const session = await pauseReplayer.open(trace, { mutant: m });
    let r;
    try {
      r = await replayTrace(trace, pauseSystem(SMALL) as unknown as AnySystem, session);
    } finally {
      await session.close();
    }
    expect(r.stoppedAt).toBe(trace.steps.length - 1);
    expect(r.predictedAt).toBe(trace.steps.length - 1);
    expect(r.brokenReal).toContain('Inv_NoRevert');
    expect(r.steps.every((s) => s.mismatches.length === 0)).toBe(true);
    const bad = { ...trace, steps: [trace.steps[0]!, { ...trace.steps[1]!, params: { r: 'r7' } }] };
    expect(() => pauseReplayer.check(bad)).toThrow(ReplayInputError);
  });

  it('version widths: the unpatched code conforms from 999,999,999 and from 2^53 − 3; P12 (versions compared as text) holds the main tour and dies by Inv_ReconcileFresh across the power of ten', async () => {
    const m = mutantsFor(loadManifest(), 'impl', 'pause').find((x) => x.id === 'P12')!;
    expect(m.expectedInvariant).toBe('Inv_ReconcileFresh');
    // The tour holds on the main pass (every model state reached), then its width pass across the power of ten kills it.
    const main = await runPauseTour({ bounds: SMALL, mutant: m, saveTrace: false });
    expect(main.result.covered.states).toBe(main.result.model.states);
    expect(main.result.failure?.check).toBe('Inv_ReconcileFresh');
    expect(main.result.failure?.message).toContain('in the version-width pass across a power of ten');
    const rig = await openPauseTourRig();
    try {
      const base = await runPauseWidthPasses(rig, { bounds: SMALL, checks: { kind: 'conformance' } });
      expect(base.map((p) => [p.base, p.result.failure?.message ?? null, p.result.equalToModel])).toEqual([
        [999_999_999, null, true],
        [2 ** 53 - 3, null, true],
      ]);
      // Red: SetPaused's version taken from INCR's integer reply (the client's double) is 2^53 at 2^53 − 1.
      const incrReply: SetPausedFn = async (client, keys, paused, local) => {
        const tx = client.multi();
        if (paused) tx.set(keys.paused, '1');
        else tx.del(keys.paused);
        tx.incr(keys.version);
        const replies = await tx.exec();
        if (!replies || replies.some(([err]) => err)) throw new Error('SetPaused: the write failed');
        const state = Object.freeze({ paused, version: Number(replies[1]![1]) });
        await client.publish(keys.channel, encodeEvent(state));
        local?.(state);
        return { state, published: true };
      };
      const wide = await runPauseWidthPasses(rig, { bounds: SMALL, patch: { setPaused: incrReply }, checks: { kind: 'conformance' } });
      expect(wide.map((p) => p.result.failure?.check ?? null)).toEqual([null, 'Conformance']);
      const patch = (await import('../../mutants/pause/impl/P12.js')).default as PausePatch;
      const mutated = await runPauseWidthPasses(rig, { bounds: SMALL, patch, checks: { kind: 'invariant', invariant: m.expectedInvariant } });
      expect(mutated.map((p) => p.result.failure?.check ?? null)).toEqual(['Inv_ReconcileFresh']);
    } finally {
      await rig.close();
    }
  });

  it('red: a reconcile timer not re-armed after it fired is a conformance failure', async () => {
    class ArmsOnce extends PauseReplica {
      private armed = false;
      protected override schedule(): void {
        if (this.armed) return;
        this.armed = true;
        super.schedule();
      }
    }
    const r = await conformWith({ replica: (o) => new ArmsOnce(o) });
    expect(r.failure?.check).toBe('Conformance');
    expect(r.failure?.attempt).toMatch(/Reconcile\(r1\)/);
  });

  it('red: a SetPaused of two commands, SET before INCR: a refused INCR is an error the model does not predict (the value may have changed without a new version)', async () => {
    const setThenIncr: SetPausedFn = async (client, keys, paused, local) => {
      if (paused) await client.set(keys.paused, '1');
      else await client.del(keys.paused);
      const version = await client.incr(keys.version);
      const state = Object.freeze({ paused, version });
      await client.publish(keys.channel, encodeEvent(state));
      local?.(state);
      return { state, published: true };
    };
    const r = await conformWith({ setPaused: setThenIncr });
    expect(r.failure?.check).toBe('Conformance');
    expect(r.failure?.attempt).toMatch(/^FailLaterWrite\(/);
    expect(r.failure?.message).toMatch(/the real system did error a write after its first was refused/);
  });

  it('red: a hot read that sends a command fails the state check', async () => {
    class ReadsValkey extends PauseReplica {
      override read() {
        void this.commands.mget(this.opts.keys.paused, this.opts.keys.version).catch(() => {});
        return super.read();
      }
    }
    const r = await conformWith({ replica: (o) => new ReadsValkey(o) });
    expect(r.failure?.check).toBe('HotRead');
  });

  it('red: a version parsed as a 32-bit integer (the base version is 2^31 − 1) is a conformance failure', async () => {
    class Int32Versions extends PauseReplica {
      protected override async sync(): Promise<void> {
        const [paused, version] = await this.commands.mget(this.opts.keys.paused, this.opts.keys.version);
        const v = Number(version ?? 0) | 0;
        const h = this.held;
        const state = Object.freeze({ paused: paused === '1', version: v });
        this.held = Object.freeze({ state: h === null || state.version > h.state.version ? state : h.state, syncedAt: this.now() });
        this.markFresh();
      }
    }
    // A replica that loads after the first write reads 2^31: two replicas, one call.
    const r = await conformWith({ replica: (o) => new Int32Versions(o) }, { replicas: ['r1', 'r2'], maxCalls: 1, maxAge: 0 });
    expect(r.failure?.check).toBe('Conformance');
    // The read of 2^31 comes back negative, "not newer": the replica keeps its old snapshot.
    expect(r.failure?.attempt).toMatch(/^(Load|Reconcile)\(r\d\)$/);
  });

  it('the command: conform --system pause --const Replicas=1 tours 180 states (exit 0); MaxAge = 1 is refused (exit 3), an unknown constant is usage (exit 64)', async () => {
    const ok = await fencecheckCli(['conform', '--system', 'pause', '--const', 'Replicas=1']);
    expect(ok.code, ok.err).toBe(0);
    expect(ok.out).toMatch(/states +180 \/ 180 \(100\.0 %\)/);
    expect(ok.out).toMatch(/conformance: the real graph is the model's \(180 states, 663 transitions, 1301 refused attempts\)/);
    const age = await fencecheckCli(['conform', '--system', 'pause', '--const', 'Replicas=1', '--const', 'MaxAge=1']);
    expect({ code: age.code, err: age.err.trim().split('\n').at(-1) }).toEqual({
      code: 3,
      err: "fencecheck conform: the pause tour's clock stands for MaxAge = 0 (one Tick ages a snapshot past the bound); got MaxAge = 1",
    });
    const unknown = await fencecheckCli(['conform', '--system', 'pause', '--const', 'Nope=1']);
    expect(unknown.code).toBe(64);
    expect(unknown.err).toMatch(/pause has no constant Nope \(constants: Replicas, MaxCalls, MaxAge\)/);
  });
});
