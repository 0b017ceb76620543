/**
 * Fencing on the seam's exploration (src/seam/explore.ts with fencing's compiled selection
 * src/systems/fencing/enabled.ts and packed keys state-key.ts) against
 * xstate/graph, the traversal it replaced: the same states in the same discovery order, the same
 * labelled edges and self-loops, the same shortest paths — for the base machine and every mutant.
 * This is what keeps the optimisation from diverging silently (docs/model.md, "Exploration").
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getAdjacencyMap, getShortestPaths } from 'xstate/graph';
import { INVARIANTS, type InvariantName } from '../../../src/systems/fencing/invariants.js';
import { DEFAULT_BOUNDS, canonicalKey, initialState, podsOf, type FencingBounds, type FencingState } from '../../../src/systems/fencing/state.js';
import { loadManifest, mutantsFor, type MutantEntry } from '../../../src/core/manifest.js';
import { importModelPatch } from '../../../src/seam/model-patch.js';
import { keyerFor, packerFor } from '../../../src/systems/fencing/state-key.js';
import { FENCING_OVERRIDABLE, fencingSystem } from '../../../src/systems/fencing/system.js';
import { projectRoot } from '../../../src/core/project-root.js';
import { BASE_CONFIG_PATH, SPEC_PATH } from '../../../src/systems/fencing/tlc/config.js';
import { dumpToSystemKeys, edgeLine } from '../../../src/seam/tlc/graph.js';
import { configWithConstants } from '../../../src/seam/tlc/growth.js';
import { fencingExplore, fencingShortestPath as shortestPathTo } from '../../support/fencing-explore.js';
import { locateTlc } from '../../../src/tlc/locate.js';
import { runTlc } from '../../../src/tlc/run.js';
import { allEvents, eventLabel, machineFor, snapshotOf, type FencingEvent, type FencingOverrides, type FencingSnapshot } from '../../../models/fencing/index.js';
import { ownedTempDir } from '../../../src/core/temp-dir.js';

const loadModelPatch = async (e: MutantEntry) => (await importModelPatch(e, FENCING_OVERRIDABLE)) as FencingOverrides;

/** xstate/graph's options exactly as the exploration used them before its own walk. */
function graphOptions(bounds: FencingBounds, overrides: FencingOverrides | undefined) {
  const machine = machineFor(bounds, overrides);
  return {
    machine,
    options: {
      fromState: snapshotOf(machine, initialState(bounds)),
      events: allEvents(bounds),
      filterEvents: (snap: FencingSnapshot, ev: FencingEvent) => snap.can(ev),
      serializeState: (snap: FencingSnapshot) => canonicalKey(snap.context),
    },
  };
}

function viaGraph(bounds: FencingBounds, overrides: FencingOverrides | undefined) {
  const { machine, options } = graphOptions(bounds, overrides);
  const adj = getAdjacencyMap(machine, options);
  const edges: string[] = [];
  let selfLoops = 0;
  for (const [key, { transitions }] of Object.entries(adj)) {
    for (const { event, state } of Object.values(transitions) as { event: FencingEvent; state: FencingSnapshot }[]) {
      const to = canonicalKey(state.context);
      if (to === key) selfLoops++;
      edges.push(edgeLine(key, eventLabel(event), to));
    }
  }
  return { order: Object.keys(adj), edges: edges.sort(), selfLoops };
}

function pathViaGraph(bounds: FencingBounds, overrides: FencingOverrides | undefined, bad: (s: FencingState) => boolean): string[] | null {
  const { machine, options } = graphOptions(bounds, overrides);
  const paths = getShortestPaths(machine, { ...options, toState: (snap: FencingSnapshot) => bad(snap.context) });
  let best: (typeof paths)[number] | undefined;
  for (const p of paths) if (best === undefined || p.weight < best.weight) best = p;
  return best ? best.steps.map((s, i) => `${i === 0 ? 'Init' : eventLabel(s.event as FencingEvent)} ${canonicalKey(s.state.context)}`) : null;
}

const pathLines = (p: ReturnType<typeof shortestPathTo>) => (p === null ? null : p.map((s) => `${s.event ? eventLabel(s.event) : 'Init'} ${canonicalKey(s.state)}`));

function expectSameGraph(bounds: FencingBounds, overrides: FencingOverrides | undefined) {
  const ref = viaGraph(bounds, overrides);
  const run = fencingExplore(bounds, { ...(overrides && { overrides }), edges: true });
  expect(run.keys).toEqual(ref.order); // same states, same breadth-first order
  expect(run.edges!.map((e) => edgeLine(run.keys[e.from]!, eventLabel(e.event), run.keys[e.to]!)).sort()).toEqual(ref.edges);
  expect(run.transitions).toBe(ref.edges.length);
  expect(run.selfLoops).toBe(ref.selfLoops);
}

const SMALL: FencingBounds = { pods: podsOf(2), maxGen: 2 };
const entries = mutantsFor(loadManifest(), 'model', 'fencing');
const patches = Promise.all(entries.map(async (e) => [e.id, await loadModelPatch(e), e.expectedInvariant as InvariantName] as const));
// Every mutant at SMALL; at the base bounds (xstate/graph takes 1–9 s a mutant there) the two whose
// changed *effect* also moves the WithinMaxGen guards, and the door mutant.
const AT_BASE = new Set(['M3', 'M5', 'M9']);

describe('the exploration walk equals xstate/graph', () => {
  it('on the base machine: same states in the same order, same edges and self-loops (base bounds and Pods=2/MaxGen=2)', () => {
    expectSameGraph(DEFAULT_BOUNDS, undefined);
    expectSameGraph(SMALL, undefined);
  });

  it('on every mutant machine at Pods=2/MaxGen=2, and M3, M5, M9 at the base bounds', async () => {
    for (const [id, o] of await patches) {
      expectSameGraph(SMALL, o);
      if (AT_BASE.has(id)) expectSameGraph(DEFAULT_BOUNDS, o);
    }
  });

  it("gives getShortestPaths' path to each mutant's first broken invariant (TypeOK or its expected one), at the base bounds", async () => {
    for (const [id, o, expected] of await patches) {
      const bad = (s: FencingState) => !INVARIANTS.TypeOK(s, DEFAULT_BOUNDS) || !INVARIANTS[expected](s, DEFAULT_BOUNDS);
      const ref = pathViaGraph(DEFAULT_BOUNDS, o, bad);
      expect(ref, id).not.toBeNull();
      expect(pathLines(shortestPathTo(DEFAULT_BOUNDS, o, bad)), id).toEqual(ref);
    }
  });

  it('gives getShortestPaths’ path where ties abound (first compatible state, base machine) and null where nothing matches', () => {
    const compatible = (s: FencingState) => s.mode === 'compatible';
    expect(pathLines(shortestPathTo(DEFAULT_BOUNDS, undefined, compatible))).toEqual(pathViaGraph(DEFAULT_BOUNDS, undefined, compatible));
    expect(pathLines(shortestPathTo(SMALL, undefined, (s) => s.oldGen > SMALL.maxGen))).toBeNull();
    expect(pathLines(shortestPathTo(SMALL, undefined, () => true))).toEqual([`Init ${canonicalKey(initialState(SMALL))}`]);
  });
});

describe('the packed state keys', () => {
  const base = fencingExplore(DEFAULT_BOUNDS);

  it('writes canonicalKey’s string for every reachable state, and packs them without a collision (base and M3)', async () => {
    const key = keyerFor(DEFAULT_BOUNDS);
    const pack = packerFor(DEFAULT_BOUNDS)!;
    // M3 breaks monotonicity: monoOk is F somewhere, which the base never reaches.
    const m3 = fencingExplore(DEFAULT_BOUNDS, { overrides: (await patches).find(([id]) => id === 'M3')![1] });
    for (const run of [base, m3]) {
      const packs = new Set<number>();
      for (const [k, s] of run.byKey) {
        expect(key(s)).toBe(k);
        packs.add(pack(s)!);
      }
      expect(packs.size).toBe(run.distinct);
    }
    expect(m3.states.some((s) => !s.monoOk)).toBe(true);
  });

  it('does not pack a state whose fields are out of range or of another type, and keys it as canonicalKey does', () => {
    const s = { ...initialState(DEFAULT_BOUNDS), oldGen: 1 };
    const pack = packerFor(DEFAULT_BOUNDS)!;
    expect(pack(s)).toBeDefined();
    // canonicalKey prints 1 and '1' alike: one state, though only the first packs.
    expect(pack({ ...s, oldGen: '1' as unknown as number })).toBeUndefined();
    expect(keyerFor(DEFAULT_BOUNDS)({ ...s, oldGen: '1' as unknown as number })).toBe(canonicalKey(s));
    expect(pack({ ...s, oldGen: DEFAULT_BOUNDS.maxGen + 5 })).toBeUndefined();
    const extraPod = { ...s, version: { ...s.version, p9: 'O' as const } };
    expect(pack(extraPod)).toBeUndefined();
    expect(keyerFor(DEFAULT_BOUNDS)(extraPod)).toBe(canonicalKey(extraPod));
  });
});

const tlc = locateTlc();

describe('the exploration at a larger bound', () => {
  // Pods=4/MaxGen=6 is one of the bench's bounds; the committed evidence covers only the base config.
  it.skipIf(!tlc.ok)('reaches exactly the states of a live TLC run at Pods=4/MaxGen=6 (when a tla2tools.jar is given)', async () => {
    if (!tlc.ok) return;
    const dir = ownedTempDir('bfs');
    try {
      const cfg = join(dir, 'Bfs_4_6.cfg');
      writeFileSync(cfg, configWithConstants(readFileSync(join(projectRoot, BASE_CONFIG_PATH), 'utf8'), { Pods: '{p1, p2, p3, p4}', MaxGen: '6' }, BASE_CONFIG_PATH));
      const run = await runTlc({ spec: join(projectRoot, SPEC_PATH), config: cfg, tools: tlc.tools, workers: 1, dump: true });
      expect(run.kind === 'completed' && run.dumpText !== undefined).toBe(true);
      if (run.kind !== 'completed' || run.dumpText === undefined) return;
      const bounds = { pods: podsOf(4), maxGen: 6 };
      const mine = fencingExplore(bounds);
      expect([...mine.keys].sort()).toEqual(dumpToSystemKeys(fencingSystem(bounds), run.dumpText));
      expect({ distinct: mine.distinct, generated: mine.generated }).toEqual({ distinct: run.result.distinct, generated: run.result.generated });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
