// The pause snapshot's model-driven run (src/pause/drive/) on a real standalone Valkey and a real
// 3-shard cluster: the unpatched code passes the default walks — no invariant broken on the real
// system, no conformance failure — with every fault kind exercised in at least two walks, and the
// twin coverage reported. A replica that skips its own local update after SetPaused breaks no
// invariant but is caught as a conformance failure (the twin predicted the caller's snapshot).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PauseReplica, type PausePatch } from '../../src/pause/index.js';
import { DRIVE_DEFAULTS, FAULT_KINDS, openDriveWorld, runPauseDrive, type DriveWorld } from '../../src/pause/drive/index.js';
import { startTopology, type Topology } from '../../src/valkey/index.js';

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
    }
  });
}
