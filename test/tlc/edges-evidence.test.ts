import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Pod } from '../../src/systems/fencing/state.js';
import { projectRoot } from '../../src/core/project-root.js';
import { parseCanonicalKey } from '../../src/systems/fencing/tlc/canonical.js';
import { sha256Text } from '../../src/systems/fencing/tlc/config.js';
import { POD_ACTIONS, podOfStep, splitEdgeLine } from '../../src/systems/fencing/tlc/edges.js';
import { evidenceDifferences } from '../../src/tlc/evidence-compare.js';
import { evidenceStatus, readBaseEdges, readBaseStateDump, type RunEvidence } from '../../src/systems/fencing/tlc/evidence.js';
import { ownedTempDir } from '../../src/core/temp-dir.js';

// Java-free: the committed labelled state graph (evidence/tlc/fencing/base.edges.txt) and its staleness checks.
const temps: string[] = [];
afterEach(() => {
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

function copyTree(): string {
  const dir = ownedTempDir('edges');
  temps.push(dir);
  for (const p of ['tla', 'evidence', 'mutants/manifest.json']) cpSync(join(projectRoot, p), join(dir, p), { recursive: true });
  return dir;
}

const STALE = /^stale TLC evidence: rerun `fencecheck tlc --mutants --write-evidence`/;
const evidence = evidenceStatus();

describe.skipIf(!evidence.ok)(`committed labelled edges${evidence.ok ? '' : ` (skipped: ${evidence.reason})`}`, () => {
  it('records every generated successor: 15636 edges, 1260 self-loops; generated = 1 initial + edges', () => {
    const g = readBaseEdges();
    const d = readBaseStateDump();
    expect(g.edges).toHaveLength(15636);
    expect(g.evidence).toMatchObject({ file: 'evidence/tlc/fencing/base.edges.txt', count: 15636, selfLoops: 1260, dotEdges: 15636, initialStates: 1, podParameter: 'label+state-change' });
    expect(d.generated).toBe(g.evidence.initialStates + g.evidence.dotEdges);
    expect(statSync(join(projectRoot, g.evidence.file)).size).toBeLessThan(1_000_000);
    // Every state has an outgoing edge or is terminal; every edge stays inside the state list.
    const states = new Set(d.states);
    for (const e of g.edges) {
      const { from, to } = splitEdgeLine(e);
      expect(states.has(from) && states.has(to)).toBe(true);
    }
  });

  it("reads the pod of every per-pod edge off the state change alone, and it is TLC's label (unambiguous)", () => {
    const byStep = new Map<string, Set<Pod>>();
    let checked = 0;
    for (const e of readBaseEdges().edges) {
      const { from, label, to } = splitEdgeLine(e);
      const m = /^(\w+)(?:\((p\d+)\))?$/.exec(label)!;
      if (!POD_ACTIONS.has(m[1]!)) {
        expect(m[2], label).toBeUndefined();
        continue;
      }
      const r = podOfStep(m[1]!, parseCanonicalKey(from), parseCanonicalKey(to));
      expect(r, e).toEqual({ pod: m[2] });
      const k = `${from}|${m[1]}|${to}`;
      byStep.set(k, (byStep.get(k) ?? new Set()).add(m[2] as Pod));
      checked++;
    }
    expect(checked).toBe(8178);
    // No (state, action name, successor) is reached by two different pods.
    expect([...byStep.values()].filter((s) => s.size > 1)).toEqual([]);
  });

  it('is stale when one edge is dropped from base.edges.txt (file hash)', () => {
    const dir = copyTree();
    const p = join(dir, 'evidence/tlc/fencing/base.edges.txt');
    const lines = readFileSync(p, 'utf8').split('\n');
    writeFileSync(p, [...lines.slice(0, 100), ...lines.slice(101)].join('\n'));
    expect(evidenceStatus(dir)).toEqual({ ok: false, reason: expect.stringMatching(/base\.edges\.txt does not match the hash/) });
    expect(() => readBaseEdges(dir)).toThrow(STALE);
  });

  it('is stale when an edge is dropped and the file hash forged, then when the count is forged too', () => {
    const dir = copyTree();
    const p = join(dir, 'evidence/tlc/fencing/base.edges.txt');
    const meta = join(dir, 'evidence/tlc/fencing/base.json');
    const lines = readFileSync(p, 'utf8').split('\n');
    const text = [...lines.slice(0, 100), ...lines.slice(101)].join('\n');
    writeFileSync(p, text);
    const base = JSON.parse(readFileSync(meta, 'utf8')) as { edges: Record<string, unknown> };
    writeFileSync(meta, JSON.stringify({ ...base, edges: { ...base.edges, sha256: sha256Text(text) } }));
    expect(evidenceStatus(dir)).toEqual({ ok: false, reason: expect.stringMatching(/holds 15635 edges, evidence\/tlc\/base\.json says 15636/) });
    writeFileSync(meta, JSON.stringify({ ...base, edges: { ...base.edges, sha256: sha256Text(text), count: 15635 } }));
    const s = evidenceStatus(dir);
    expect(s).toEqual({ ok: false, reason: expect.stringMatching(/canonical edge list of evidence\/tlc\/base\.edges\.txt does not match canonicalSha256/) });
    if (!s.ok) expect(s.reason).toMatch(STALE);
  });

  it('is stale when base.json names no edge list, or the file is missing', () => {
    const dir = copyTree();
    const meta = join(dir, 'evidence/tlc/fencing/base.json');
    const base = JSON.parse(readFileSync(meta, 'utf8')) as Record<string, unknown>;
    const { edges: _edges, ...noEdges } = base;
    writeFileSync(meta, JSON.stringify(noEdges));
    expect(evidenceStatus(dir)).toEqual({ ok: false, reason: expect.stringMatching(/names no labelled edge list/) });
    writeFileSync(meta, JSON.stringify(base));
    rmSync(join(dir, 'evidence/tlc/fencing/base.edges.txt'));
    expect(evidenceStatus(dir)).toEqual({ ok: false, reason: expect.stringMatching(/^no TLC evidence \(evidence\/tlc\/base\.edges\.txt is missing\)/) });
  });

  it('a live run whose edges differ from the committed ones is reported (fencecheck tlc without --write-evidence)', () => {
    const committed = JSON.parse(readFileSync(join(projectRoot, 'evidence/tlc/fencing/base.json'), 'utf8')) as RunEvidence;
    expect(evidenceDifferences(committed, [])).toEqual([]);
    const live: RunEvidence = { ...committed, edges: { ...committed.edges!, count: committed.edges!.count - 1, canonicalSha256: '0'.repeat(64) } };
    expect(evidenceDifferences(live, [])).toEqual(['base edges: evidence 15636, live 15635', 'base labelled edge set differs from base.edges.txt']);
    const { edges: _e, ...noGraph } = committed;
    expect(evidenceDifferences(noGraph as RunEvidence, [])).toEqual(['the live run produced no labelled state graph']);
  });

  it('`fencecheck evidence --json` counts the edges (no Java)', () => {
    const r = spawnSync(process.execPath, ['bin/fencecheck.mjs', 'evidence', '--json'], {
      cwd: projectRoot,
      encoding: 'utf8',
      env: { ...process.env, TLA2TOOLS_JAR: '', JAVA_HOME: '', PATH: '/nonexistent' },
    });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'passed', counts: { distinct: 4117, generated: 15637, edges: 15636, selfLoops: 1260 } });
  });
});
