// `fencecheck mutants --layer limiter`: every limiter mutant is killed by the ordinary property,
// with the expected check, and its seed + path replay the same violation.
import { describe, expect, it } from 'vitest';
import { loadManifest, mutantsFor } from '../../src/mutants/manifest.js';
import { runner } from '../../src/mutants/layers/limiter.js';
import { startTopology } from '../../src/valkey/index.js';
import { runLimiterProperty } from '../../properties/limiter/property.js';
import patchL2 from '../../mutants/limiter/L2.js';

describe('limiter mutants', () => {
  it('kills L1–L6, each by its expected check', async () => {
    const mutants = mutantsFor(loadManifest(), 'limiter');
    expect(mutants.map((m) => m.id)).toEqual(['L1', 'L2', 'L3', 'L4', 'L5', 'L6']);
    const results = await runner.run(mutants, { numRuns: 300 });
    for (const r of results) {
      expect(r.verdict, `${r.id}: ${r.reason ?? ''}`).toBe('killed');
      expect(r.seed).toBeTypeOf('number');
      expect(r.path).toBeTruthy();
    }
  });

  it('a counterexample replays from its seed and path', async () => {
    const topology = await startTopology({ kind: 'standalone' });
    try {
      const first = await runLimiterProperty({ topology, numRuns: 300, patch: patchL2 });
      expect(first.passed).toBe(false);
      const again = await runLimiterProperty({ topology, numRuns: 300, patch: patchL2, seed: first.seed, path: first.path! });
      expect(again.passed).toBe(false);
      expect(again.violated).toBe(first.violated);
      expect(again.counterexample).toEqual(first.counterexample);
    } finally {
      await topology.stop();
    }
  });
});
