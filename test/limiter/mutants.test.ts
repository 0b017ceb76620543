// `fencecheck mutants --layer impl --system limiter`: every limiter mutant is killed by the ordinary property,
// with the expected check, and each one's seed + path replays the same violation, every time.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadManifest, mutantsFor } from '../../src/core/manifest.js';
import { runLimiterEntries } from '../../src/systems/limiter/impl-runner.js';
import type { MutantResult } from '../../src/core/verdict.js';
import type { LimiterPatch } from '../../src/systems/limiter/index.js';
import { projectRoot } from '../../src/core/project-root.js';
import { startTopology } from '../../src/valkey/index.js';
import { runLimiterProperty } from '../../properties/limiter/property.js';

/** Replays per mutant, each with this delay (ms) before every script call: a loaded machine. */
const REPLAY_DELAYS_MS = [0, 200] as const;

/** The patch, with every script call sent `ms` later (more real time inside the case, nothing else). */
function delayed(patch: LimiterPatch, ms: number): LimiterPatch {
  if (ms === 0) return patch;
  return {
    ...patch,
    wrapCall: (call) => {
      const inner = patch.wrapCall ? patch.wrapCall(call) : call;
      return async (client, script, keys, args) => {
        await new Promise((done) => setTimeout(done, ms));
        return inner(client, script, keys, args);
      };
    },
  };
}
const mutants = mutantsFor(loadManifest(), 'impl', 'limiter');
let killed: readonly MutantResult[] | undefined;

describe('limiter mutants', () => {
  it('kills L1–L6, each by its expected check', async () => {
    expect(mutants.map((m) => m.id)).toEqual(['L1', 'L2', 'L3', 'L4', 'L5', 'L6']);
    const results = await runLimiterEntries(mutants, { numRuns: 300 });
    for (const r of results) {
      expect(r.verdict, `${r.id}: ${r.reason ?? ''}`).toBe('killed');
      expect(r.seed).toBeTypeOf('number');
      expect(r.path).toBeTruthy();
      // The one command that reproduces it, as the reports print it.
      expect(r.replay).toBe(`fencecheck limiter --topology standalone --no-invariants --patch ${mutants.find((m) => m.id === r.id)!.layers.impl!.patch} --seed=${r.seed} --path=${r.path}`);
    }
    killed = results;
  });

  // Real elapsed time differs between a run and its replay (a loaded CI machine); the generated
  // cases are built so that it cannot change a decision (docs/limiter.md), so every replay — one
  // with each script call held back 200 ms — must fail the same check with the same counterexample.
  it(`every mutant's counterexample replays from its seed and path (${REPLAY_DELAYS_MS.length}× each, calls delayed ${REPLAY_DELAYS_MS.join('/')} ms; same check, same case)`, async () => {
    expect(killed, 'the kill run above did not complete').toBeDefined();
    const topology = await startTopology({ kind: 'standalone' });
    try {
      for (const r of killed!) {
        const m = mutants.find((x) => x.id === r.id)!;
        const patch = ((await import(pathToFileURL(resolve(projectRoot, m.layers.impl!.patch!)).href)) as { default: LimiterPatch }).default;
        const seen: unknown[] = [];
        for (const ms of REPLAY_DELAYS_MS) {
          const again = await runLimiterProperty({ topology, numRuns: 300, patch: delayed(patch, ms), seed: r.seed!, path: r.path! });
          const hint = `${r.id} replay with calls delayed ${ms} ms (--seed=${r.seed} --path=${r.path})`;
          expect(again.passed, `${hint} passed`).toBe(false);
          expect(again.violated, `${hint}: ${again.message ?? ''}`).toBe(r.violated);
          seen.push(again.counterexample);
        }
        expect(JSON.stringify(seen[1]), `${r.id}: the replays found different counterexamples`).toBe(JSON.stringify(seen[0]));
      }
    } finally {
      await topology.stop();
    }
  });
});
