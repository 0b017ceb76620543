import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { checkBase } from '../../src/systems/fencing/tlc/check.js';
import { dotToFencingGraph } from '../../src/systems/fencing/tlc/edges.js';
import { evidenceDifferences } from '../../src/tlc/evidence-compare.js';
import { readBaseEdges } from '../../src/systems/fencing/tlc/evidence.js';
import { locateTlc } from '../../src/tlc/locate.js';
import { runTlc } from '../../src/tlc/run.js';

// With a jar (TLA2TOOLS_JAR): TLC's labelled state graph, live, against the committed evidence and fixture.
const located = locateTlc();
const why = located.ok ? '' : ` — SKIPPED: ${located.reason}`;

describe(`live TLC state graph${why}`, () => {
  it.skipIf(!located.ok)(`the base run's labelled edges are evidence/tlc/fencing/base.edges.txt${why}`, async () => {
    if (!located.ok) return;
    const base = await checkBase({ tools: located.tools, timeoutMs: 300_000 });
    expect(base.evidence.outcome).toBe('ok');
    const committed = readBaseEdges();
    expect(base.evidence.command).toContain('-dump dot,actionlabels');
    expect(base.evidence.edges).toMatchObject({
      count: committed.evidence.count,
      selfLoops: committed.evidence.selfLoops,
      canonicalSha256: committed.evidence.canonicalSha256,
    });
    expect(base.evidence.generated).toBe(base.evidence.edges!.initialStates + base.evidence.edges!.dotEdges);
    expect(base.edges).toEqual(committed.edges);
    expect(base.edgesText).toBe(readFileSync(join(projectRoot, committed.evidence.file), 'utf8'));
    expect(evidenceDifferences(base.evidence, [])).toEqual([]);
  }, 400_000);

  it.skipIf(!located.ok)(`a fresh run with specs/TinyGraph.cfg reproduces the tiny-graph.dot fixture's graph${why}`, async () => {
    if (!located.ok) return;
    const fixtures = join(import.meta.dirname, 'fixtures');
    const run = await runTlc({
      spec: join(projectRoot, 'tla/fencing/RedisClusterFencingMigration.tla'),
      config: join(fixtures, 'specs/TinyGraph.cfg'),
      graph: true,
      tools: located.tools,
      timeoutMs: 120_000,
    });
    expect(run.kind).toBe('completed');
    if (run.kind !== 'completed') return;
    expect(run.dotText).toBeDefined();
    const live = dotToFencingGraph(run.dotText!);
    const saved = dotToFencingGraph(readFileSync(join(fixtures, 'tiny-graph.dot'), 'utf8'));
    expect(live.states).toEqual(saved.states);
    expect(live.edges).toEqual(saved.edges);
    expect(run.result.generated).toBe(live.initial.length + live.dotEdges);
  }, 180_000);
});
