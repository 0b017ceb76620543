import { describe, expect, it } from 'vitest';
import { loadSystemManifest, packageOf, SYSTEM_NAMES } from '../../src/registry/systems.js';
import { loadManifest, validateManifest, ManifestError, mutantsFor } from '../../src/core/manifest.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../src/core/project-root.js';
import { cfgConstants } from '../../src/seam/tracecheck/target.js';

describe('mutant manifest', () => {
  it("loads, with every system's mutants: M1–M9, L1–L6, P1–P14, R1 and I1–I24 (54)", () => {
    const m = loadManifest();
    const ids = (system: string) => m.mutants.filter((x) => x.system === system).map((x) => x.id);
    expect(ids('fencing')).toEqual(['M1', 'M2', 'M3', 'M4', 'M5', 'M6', 'M7', 'M8', 'M9']);
    expect(ids('limiter')).toEqual(['L1', 'L2', 'L3', 'L4', 'L5', 'L6']);
    expect(ids('pause')).toEqual(['P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P7', 'P8', 'P9', 'P10', 'P11', 'P12', 'P13', 'P14']);
    expect(ids('failover')).toEqual(['R1']);
    expect(m.mutants).toHaveLength(54);
    // Fencing, pause (P1–P6, P13, P14), failover and the init limiter at tla and model; the limiter (no TLA+ model yet), P7–P12 (bugs of the real code the tour finds) and I13–I16 (bugs of the real server the drive's checks find) at impl only; I17 (the limiter disabled) at all three; I18–I24 (bugs of the real server) at impl only; every one at impl.
    expect(ids('init-limiter')).toEqual(Array.from({ length: 24 }, (_, i) => `I${i + 1}`));
    for (const layer of ['tla', 'model'] as const) {
      expect(mutantsFor(m, layer)).toHaveLength(31);
      expect(mutantsFor(m, layer, 'fencing')).toHaveLength(9);
    }
    expect(mutantsFor(m, 'impl')).toHaveLength(54);
    expect(mutantsFor(m, 'impl', 'pause')).toHaveLength(14);
    expect(mutantsFor(m, 'impl', 'init-limiter')).toHaveLength(24);
    expect(mutantsFor(m, 'impl', 'limiter').map((x) => x.system)).toEqual(Array(6).fill('limiter'));
  });

  it('judges a mutant off the base config only at constants its TLC config (if it has one) sets the same; malformed constants are refused', () => {
    const off = loadManifest().mutants.filter((x) => x.constants !== undefined);
    expect(off.map((x) => x.id)).toEqual(expect.arrayContaining(['I17', 'I23']));
    for (const x of off.filter((e) => e.layers.tla)) {
      const cfg = cfgConstants(readFileSync(join(projectRoot, x.layers.tla!.config!), 'utf8'), x.layers.tla!.config!);
      for (const [name, value] of Object.entries(x.constants!)) expect(cfg.get(name)?.value, `${x.id} ${name}`).toBe(value);
    }
    const entry = { id: 'X1', system: 's', target: 't', kind: 'guard', description: 'd', realBug: 'r', expectedInvariant: 'I', layers: { impl: { patch: 'p' } } };
    for (const constants of [{}, [], { LimiterOn: '' }, { LimiterOn: false }, 'LimiterOn=FALSE'])
      expect(() => validateManifest({ schema: 'fencecheck.mutants/1', mutants: [{ ...entry, constants }] })).toThrow(/X1: constants must be/);
  });

  it("keeps each mutant's files in its system's folders: tla/<system>/…/mutants/<id>.cfg, mutants/<package>/<layer>/<id>.ts", () => {
    for (const x of loadManifest().mutants) {
      const pkg = packageOf(x.system)!.name;
      if (x.layers.tla) expect(x.layers.tla.config, x.id).toMatch(new RegExp(`^tla/${pkg}/(${x.system}/)?mutants/${x.id}\\.cfg$`));
      for (const layer of ['model', 'impl'] as const) if (x.layers[layer]) expect(x.layers[layer]!.patch, `${x.id} ${layer}`).toBe(`mutants/${pkg}/${layer}/${x.id}.ts`);
    }
  });

  it("names the seed table's expected invariant for every fencing mutant", () => {
    const byId = Object.fromEntries(loadManifest().mutants.map((x) => [x.id, x.expectedInvariant]));
    for (const id of ['M1', 'M2', 'M4', 'M6', 'M8']) expect(byId[id]).toBe('Inv_SingleAuthority');
    for (const id of ['M3', 'M5', 'M7']) expect(byId[id]).toBe('Inv_Monotonic');
    expect(byId.M9).toBe('Inv_SlotRulesSafe');
  });

  it('rejects a malformed manifest with a message naming the problem', () => {
    expect(() => validateManifest({ schema: 'x', mutants: [] })).toThrow(ManifestError);
    expect(() => validateManifest({ schema: 'fencecheck.mutants/1', mutants: [{ id: 'M1' }] })).toThrow(/system|target/);
    const entry = { id: 'X1', system: 'pause', target: 't', kind: 'guard', description: 'd', realBug: 'b', expectedInvariant: 'Inv_NoRevert', layers: {} };
    expect(validateManifest({ schema: 'fencecheck.mutants/1', mutants: [entry] }).mutants[0]!.system).toBe('pause');
    expect(() => validateManifest({ schema: 'fencecheck.mutants/1', mutants: [{ ...entry, system: 'paus' }] }, 'manifest', SYSTEM_NAMES)).toThrow(
      /X1: system must be one of fencing, failover, limiter, pause, init-limiter, got "paus"/,
    );
    // The registry's own reader checks the systems it knows.
    expect(loadSystemManifest().mutants).toHaveLength(54);
  });
});
