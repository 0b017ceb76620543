// The pause snapshot's model-driven run (src/systems/pause/drive/) on a real standalone Valkey and a real
// 3-shard cluster: the unpatched code passes the default walks — no invariant broken on the real
// system, no conformance failure — with every fault kind exercised in at least two walks, and the
// twin coverage reported. FailSetPaused is done both ways (failed-write: EXEC aborted; killed-write:
// the connection killed while the keys' node is paused for writes), each in at least two walks. A
// replica that skips its own local update after SetPaused breaks no invariant but is caught as a
// conformance failure (the twin predicted the caller's snapshot). A driver that unpauses before it
// kills lets the blocked write commit: the drive reports it (the write the twin says failed committed).
// A stalled process (a loaded machine) makes replicas fail closed early: counted, never a failure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PauseReplica, type PausePatch } from '../../src/systems/pause/index.js';
import { DRIVE_DEFAULTS, FAULT_KINDS, openDriveWorld, runPauseDrive, type DriveWorld } from '../../src/systems/pause/drive/index.js';
import type { KillOrder } from '../../src/systems/pause/drive/killed-write.js';
import { startTopology, type Topology } from '../../src/valkey/index.js';

/** The broken driver: the write runs once the node is unpaused, the kill comes too late. */
const unpauseThenKill: KillOrder = async (s) => {
  await s.unpause();
  return s.kill();
};

for (const spec of [{ kind: 'standalone' as const }, { kind: 'cluster' as const, shards: 3 }]) {
  describe(`pause model-driven run on ${spec.kind}`, () => {
    let topo: Topology;
    let world: DriveWorld;
    beforeAll(async () => {
      topo = await startTopology(spec, { provider: 'native' });
      world = await openDriveWorld(topo);
    }, 60_000);
    afterAll(async () => {
      await world?.close();
      await topo?.stop();
    });

    it('the real code passes the default walks, with every fault kind in at least two of them', async () => {
      const r = await runPauseDrive(world, { coverage: spec.kind === 'standalone' });
      expect(r.violation).toBeNull();
      expect(r.conformance).toBeNull();
      expect(r.walks).toHaveLength(DRIVE_DEFAULTS.walks);
      for (const k of FAULT_KINDS) expect({ kind: k, walks: r.faultWalks[k] >= 2 }).toEqual({ kind: k, walks: true });
      if (spec.kind === 'standalone') {
        expect(r.coverage).toMatchObject({ totalStates: 15_268, totalTransitions: 104_782 });
        expect(r.coverage!.states).toBeGreaterThan(100);
        expect(r.coverage!.transitions).toBeGreaterThanOrEqual(r.coverage!.states - r.walks.length);
      }
    });

    it('a driver that unpauses before the kill lets the write commit, and the drive reports it', async () => {
      const broken = await openDriveWorld(topo, { killOrder: unpauseThenKill });
      try {
        // Walk 1 of seed 1: step 6 is a killed-write FailSetPaused.
        const r = await runPauseDrive(broken, { walk: 1 });
        expect(r.walks[0]!.faults).toContain('killed-write');
        expect(r.conformance?.labels.at(-1)).toMatch(/^FailSetPaused/);
        expect(r.conformance?.message).toMatch(/Valkey holds paused@v1 after the killed write \(was running@v0\)/);
      } finally {
        await broken.close();
      }
    });

    if (spec.kind === 'standalone') {
      it('a deterministic difference from the twin is a conformance failure, not an invariant', async () => {
        class NoLocalUpdate extends PauseReplica {
          override applyLocal(): void {}
        }
        const patch: PausePatch = { replica: (o) => new NoLocalUpdate(o) };
        const r = await runPauseDrive(world, { walks: 4, patch });
        expect(r.violation).toBeNull();
        expect(r.conformance?.message).toMatch(/r\d holds running@v\d|r\d holds paused@v\d/);
        expect(r.conformance!.labels.at(-1)).toMatch(/^CommitSetPaused/);
      });

      // A loaded machine stalls the process: here every 7th setImmediate callback waits 25 ms first,
      // so some observations' answers are read a bound after the view began and a replica has failed
      // closed meanwhile. That is time's doing (counted), never a conformance failure; measured to
      // the view's start instead of the answers' read, 5 of 5 seeds failed so (verify failed so once, 2026-12-04).
      it('a stall between the view and the answers read is time, not a conformance failure', async () => {
        const original = globalThis.setImmediate;
        let calls = 0;
        const stalled = ((fn: (...args: unknown[]) => void, ...args: unknown[]) =>
          original(() => {
            if (++calls % 7 === 0) for (const end = performance.now() + 25; performance.now() < end; );
            fn(...args);
          })) as unknown as typeof setImmediate;
        globalThis.setImmediate = stalled;
        try {
          const r = await runPauseDrive(world, { walks: 8 });
          expect(r.violation).toBeNull();
          expect(r.conformance).toBeNull();
          expect(r.timeSkipped).toBeGreaterThan(0);
        } finally {
          globalThis.setImmediate = original;
        }
      });
    }
  });
}
