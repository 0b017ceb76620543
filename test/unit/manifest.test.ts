import { describe, expect, it } from 'vitest';
import { loadManifest, validateManifest, ManifestError, mutantsFor } from '../../src/mutants/manifest.js';

describe('mutant manifest', () => {
  it('loads, with M1–M9 for the fencing layers and limiter mutants for the limiter layer', () => {
    const m = loadManifest();
    const fencing = m.mutants.filter((x) => x.system === 'fencing').map((x) => x.id);
    expect(fencing).toEqual(['M1', 'M2', 'M3', 'M4', 'M5', 'M6', 'M7', 'M8', 'M9']);
    for (const layer of ['tla', 'model', 'impl'] as const) expect(mutantsFor(m, layer)).toHaveLength(9);
    expect(mutantsFor(m, 'limiter').length).toBeGreaterThanOrEqual(6);
  });

  it('names the seed table\'s expected invariant for every fencing mutant', () => {
    const byId = Object.fromEntries(loadManifest().mutants.map((x) => [x.id, x.expectedInvariant]));
    for (const id of ['M1', 'M2', 'M4', 'M6', 'M8']) expect(byId[id]).toBe('Inv_SingleAuthority');
    for (const id of ['M3', 'M5', 'M7']) expect(byId[id]).toBe('Inv_Monotonic');
    expect(byId['M9']).toBe('Inv_SlotRulesSafe');
  });

  it('rejects a malformed manifest with a message naming the problem', () => {
    expect(() => validateManifest({ schema: 'x', mutants: [] })).toThrow(ManifestError);
    expect(() => validateManifest({ schema: 'fencecheck.mutants/1', mutants: [{ id: 'M1' }] })).toThrow(/system|target/);
  });
});
