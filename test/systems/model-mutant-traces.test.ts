/**
 * The model layer saves every system's counterexample as that system's trace (not only fencing's):
 * each killed mutant's shortest path is `<traceDir>/model-<id>.json`, a valid fencecheck.trace/2 file
 * whose steps the mutated twin takes one by one and whose last state breaks the expected invariant.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { StageReport } from '../../src/core/stage-report.js';
import { runCli } from '../verify/run-cli.js';
import { projectRoot } from '../../src/core/project-root.js';
import { mutantsFor } from '../../src/core/manifest.js';
import { loadSystemManifest, SYSTEMS } from '../../src/registry/systems.js';
import { mutatedSystem } from '../../src/seam/model-patch.js';
import { runSeamModelMutants } from '../../src/seam/model-mutant.js';
import { eventAction, stateFromItf } from '../../src/seam/trace.js';
import { loadTraceFile } from '../../src/trace/load.js';

const traceDir = mkdtempSync(join(tmpdir(), 'fencecheck-model-traces-'));
afterAll(() => rmSync(traceDir, { recursive: true, force: true }));

describe('model-layer counterexamples of every system', () => {
  it("are saved as each system's trace, which the mutated twin replays step by step", { timeout: 300_000 }, async () => {
    const manifest = loadSystemManifest();
    const entries = mutantsFor(manifest, 'model').filter((m) => ['M1', 'M9', 'P1', 'P5', 'R1'].includes(m.id));
    const lines: string[] = [];
    const results = await runSeamModelMutants(entries, { traceDir, log: (l) => lines.push(l) }, SYSTEMS);
    expect(new Set(entries.map((e) => e.system))).toEqual(new Set(['fencing', 'pause', 'failover']));
    for (const r of results) {
      expect(r, r.id).toMatchObject({ verdict: 'killed', tracePath: expect.stringMatching(new RegExp(`model-${r.id}\\.json$`)) });
      const entry = entries.find((e) => e.id === r.id)!;
      const t = loadTraceFile(resolve(projectRoot, r.tracePath!));
      expect(t).toMatchObject({ system: entry.system, source: 'model', mutant: r.id, violated: r.expectedInvariant });
      expect(t.steps).toHaveLength(r.traceLength!);
      expect(t.steps.at(-1)!.broken).toContain(r.expectedInvariant);
      const twin = await mutatedSystem(await SYSTEMS[entry.system]!(), entry);
      for (let i = 1; i < t.steps.length; i++) {
        const next = twin.key(stateFromItf(twin, t.steps[i]!.state));
        const took = twin
          .successors(stateFromItf(twin, t.steps[i - 1]!.state))
          .filter((x) => twin.key(x.state) === next)
          .map((x) => eventAction(twin, x.event));
        expect(took, `${r.id} step ${i}`).toContainEqual({ action: t.steps[i]!.action, params: t.steps[i]!.params });
      }
    }
    // The log prints each counterexample with what every step changed.
    expect(lines.join('\n')).toMatch(/AcquireB\(p1\)\s+newLease: \[owner \|-> None, gen \|-> 0\] → \[owner \|-> p1, gen \|-> \d\]/);
  });

  it("explore --mutant saves the shortest counterexample of any system as that system's trace", { timeout: 120_000 }, async () => {
    const r = await runCli(['explore', '--system', 'pause', '--mutant', 'P5', '--json']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as StageReport;
    expect(report.traces).toHaveLength(1);
    const file = resolve(projectRoot, report.traces![0]!);
    try {
      const t = loadTraceFile(file);
      expect(t).toMatchObject({ system: 'pause', source: 'model', mutant: 'P5', violated: 'Inv_ReadyAfterSnapshot' });
      expect(t.steps.at(-1)!.broken).toContain('Inv_ReadyAfterSnapshot');
      expect(r.stderr).toMatch(/Ready\(r\d\)\s+ready: /);
    } finally {
      rmSync(file, { force: true });
    }
  });
});
