import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifest, mutantsFor } from '../../src/core/manifest.js';
import { projectRoot } from '../../src/core/project-root.js';
import { checkSystemBase, checkSystemMutant } from '../../src/seam/tlc/system-check.js';
import { systemEvidenceDifferences } from '../../src/seam/tlc/system-compare.js';
import type { AnySystem } from '../../src/seam/package.js';
import { fencingSystem } from '../../src/systems/fencing/system.js';
import { findJar, findJava, locateTlc, NO_JAR_REASON, NO_JAVA_REASON } from '../../src/tlc/locate.js';
import { runTlc } from '../../src/tlc/run.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';

const located = locateTlc();
const why = located.ok ? '' : ` — SKIPPED: ${located.reason}`;

describe('TLC availability', () => {
  it('says "no tla2tools.jar (set TLA2TOOLS_JAR)" when neither TLA2TOOLS_JAR nor .tools/tla2tools.jar exists', () => {
    const empty = ownedTempDir('nojar');
    try {
      expect(findJar({}, empty)).toEqual({ ok: false, reason: NO_JAR_REASON });
      expect(findJar({ TLA2TOOLS_JAR: join(empty, 'nope.jar') }, empty)).toEqual({ ok: false, reason: expect.stringMatching(/nope\.jar does not exist/) });
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('says "no Java" when neither JAVA_HOME nor PATH has a java', () => {
    expect(findJava({ JAVA_HOME: '/nonexistent', PATH: '/nonexistent' })).toEqual({ ok: false, reason: NO_JAVA_REASON });
  });

  it('`fencecheck tlc --json` reports not-run with exit 2 when the jar is missing', () => {
    const r = spawnSync(process.execPath, ['bin/fencecheck.mjs', 'tlc', '--system', 'fencing', '--json'], {
      cwd: projectRoot,
      encoding: 'utf8',
      env: { ...process.env, TLA2TOOLS_JAR: join(tmpdir(), 'fencecheck-no-such.jar') },
    });
    expect(r.status).toBe(2);
    const report = JSON.parse(r.stdout) as { status: string; reason: string };
    expect(report.status).toBe('not-run');
    expect(report.reason).toMatch(/does not exist/);
  });
});

describe(`live TLC run compared with the committed evidence${why}`, () => {
  it.skipIf(!located.ok)(
    `base + M1..M9 reproduce evidence/tlc/fencing/${why}`,
    async () => {
      if (!located.ok) return;
      const opts = { tools: located.tools, timeoutMs: 300_000 };
      const sys = fencingSystem() as unknown as AnySystem;
      const base = await checkSystemBase(sys, opts);
      expect(base.evidence.outcome).toBe('ok');
      expect(base.evidence.command).toContain('-dump dot,actionlabels');
      const checked = [];
      for (const m of mutantsFor(loadManifest(), 'tla', 'fencing')) checked.push(await checkSystemMutant(sys, m, { ...opts, ...(base.graph && { baseStates: base.graph.states }) }));
      expect(checked.map((c) => c.result.verdict)).toEqual(Array(9).fill('killed'));
      expect(systemEvidenceDifferences({ system: 'fencing', base: base.evidence, graph: base.graph!, mutants: checked.map((c) => c.evidence) })).toEqual([]);
      expect(base.edgesText).toBe(readFileSync(join(projectRoot, 'evidence/tlc/fencing/base.edges.txt'), 'utf8'));
    },
    600_000,
  );

  it.skipIf(!located.ok)(
    `a SANY error in a real run is reported with file, line and column${why}`,
    async () => {
      if (!located.ok) return;
      const dir = join(import.meta.dirname, 'fixtures/specs');
      const run = await runTlc({ spec: join(dir, 'ParseError.tla'), config: join(dir, 'ParseError.cfg'), tools: located.tools, timeoutMs: 120_000 });
      expect(run.kind).toBe('completed');
      if (run.kind === 'completed') {
        expect(run.result.outcome).toBe('parse-error');
        expect(run.result.sany[0]).toMatchObject({ file: 'ParseError.tla', line: 6, column: 1 });
      }
    },
    180_000,
  );

  it.skipIf(!located.ok)(
    `a run that exceeds its timeout is killed and reported as timeout${why}`,
    async () => {
      if (!located.ok) return;
      const run = await runTlc({
        spec: join(projectRoot, 'tla/fencing/RedisClusterFencingMigration.tla'),
        config: join(projectRoot, 'tla/fencing/RedisClusterFencingMigration.cfg'),
        tools: located.tools,
        timeoutMs: 300,
      });
      expect(run.kind).toBe('timeout');
    },
    60_000,
  );

  it.skipIf(!located.ok)(
    `a surviving mutant with the base's reachable state set is reported as equivalent${why}`,
    async () => {
      if (!located.ok) return;
      // At MaxGen = 0 no generation can be issued, so dropping AcquireB's max-merge changes nothing.
      const root = ownedTempDir('equiv');
      try {
        for (const p of ['tla', 'mutants/manifest.json']) cpSync(join(projectRoot, p), join(root, p), { recursive: true });
        for (const cfg of ['tla/fencing/RedisClusterFencingMigration.cfg', 'tla/fencing/mutants/M3.cfg']) {
          writeFileSync(
            join(root, cfg),
            readFileSync(join(root, cfg), 'utf8').replace(/^(\s*MaxGen = )4$/m, (_m, k: string) => `${k}0`),
          );
        }
        const opts = { tools: located.tools, timeoutMs: 120_000, root };
        const sys = fencingSystem({ pods: ['p1', 'p2', 'p3'], maxGen: 0 }) as unknown as AnySystem;
        const base = await checkSystemBase(sys, opts);
        const m3 = mutantsFor(loadManifest(join(root, 'mutants/manifest.json')), 'tla').find((m) => m.id === 'M3')!;
        const checked = await checkSystemMutant(sys, m3, { ...opts, ...(base.graph && { baseStates: base.graph.states }) });
        expect(checked.result.verdict).toBe('equivalent');
        expect(checked.result.reason).toMatch(/same \d+ reachable states as the base/);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
    180_000,
  );
});
