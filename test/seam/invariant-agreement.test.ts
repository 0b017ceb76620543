// TLC evaluated each spec's invariants; every twin's TypeScript predicates must give the same answers
// on the same states, or the two definitions have drifted apart. The twin's states are TLC's (parity,
// checked on the same evidence), so every invariant holds on each of them; and the last state of
// each mutant's TLC counterexample — TLC's text in the evidence, through the system's own TLC mapping —
// breaks the invariant TLC reported, while TypeOK (checked first by TLC) holds there.
import { describe, expect, it } from 'vitest';
import { mutantsFor } from '../../src/core/manifest.js';
import { parseTlaValue, type TlaValue } from '../../src/core/tla-value.js';
import { readBaseGraph, readSystemEvidence } from '../../src/seam/evidence.js';
import { exploreSystem } from '../../src/seam/explore.js';
import { mutatedSystem } from '../../src/seam/model-patch.js';
import { compareStateSets } from '../../src/seam/parity.js';
import { loadSystemManifest, MODEL_NAMES, SYSTEMS } from '../../src/registry/systems.js';

describe.each(MODEL_NAMES)('%s: the TypeScript invariants agree with TLC', (system) => {
  it("hold on every state TLC reached in the base model (the twin's states are exactly TLC's)", async () => {
    const sys = await SYSTEMS[system]!();
    const run = exploreSystem(sys);
    const g = readBaseGraph(system);
    expect('reason' in g ? g.reason : 'fresh').toBe('fresh');
    if ('reason' in g) return;
    expect(compareStateSets(run.keys, g.graph.states).equal).toBe(true);
    for (const v of run.verdicts) expect(v, v.name).toMatchObject({ holds: true, violatingStates: 0 });
  });

  it("each mutant's TLC counterexample ends in a state that breaks the reported invariant and keeps TypeOK", async () => {
    const base = await SYSTEMS[system]!();
    for (const m of mutantsFor(loadSystemManifest(), 'tla', system)) {
      // An invariant may read a mutated definition (pause's Inv_FailClosed reads Answer): judge with the mutant's machine,
      // at the constants its entry names (its TLC config's: I17 runs with the limiter disabled).
      const at = m.constants ? base.withConstants!(m.constants) : base;
      const sys = m.layers.model ? await mutatedSystem(at, m) : at;
      const e = readSystemEvidence(system, m.id).evidence!;
      // TLC's own text of the last state of its counterexample (never a TypeScript result recorded earlier).
      const last = e.tlcStates!.at(-1)!;
      expect(e.tlcStates, m.id).toHaveLength(e.traceLength!);
      const vars = Object.fromEntries(Object.entries(last).map(([k, v]) => [k, parseTlaValue(v)])) as Record<string, TlaValue>;
      const s = sys.fromTlc(vars);
      expect(sys.invariants[e.violated!]!(s), `${m.id} ${e.violated}`).toBe(false);
      if (sys.invariants.TypeOK) expect(sys.invariants.TypeOK!(s), `${m.id} TypeOK`).toBe(true);
    }
  });
});
