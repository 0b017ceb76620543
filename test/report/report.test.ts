import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import { junitXml } from '../../src/report/junit.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { limiterSection } from '../../src/systems/limiter/report.js';
import { tlcModelBlock } from '../../src/tlc/evidence-block.js';
import { tlcSummary } from '../../src/report/tlc-summary.js';
import { stageReport } from '../../src/core/stage-report.js';
import { mutationScore } from '../../src/report/score.js';
import { buildView, traceAnchor } from '../../src/report/view.js';
import { loadReportTraces, writeVerifyReports } from '../../src/report/write.js';
import { EVIDENCE_BASE, fixtureReport, fixtureRoot, M1_TRACE_PATH } from './fixtures.js';
import { parseToolOutput } from '../../src/tlc/tool-output.js';
import { toTlaTrace } from '../../src/tlc/to-itf.js';
import { fixturePath } from '../tlc/captures.js';

describe('verify document', () => {
  const r = fixtureReport();
  const rows = Object.fromEntries(r.mutationMatrix.rows.map((row) => [row.id, row]));

  it('fills the mutation matrix from the mutant stages, with the reason wherever a cell is not a kill', () => {
    expect(r.mutationMatrix.layers).toEqual(['tla', 'model', 'impl']);
    expect(rows.M1!.cells.model).toMatchObject({ verdict: 'killed', violated: 'Inv_SingleAuthority', tracePath: M1_TRACE_PATH });
    expect(rows.M3!.cells.model).toMatchObject({ verdict: 'survived', reason: 'exploration finished with every invariant holding' });
    expect(rows.M1!.cells.tla).toMatchObject({ verdict: 'not-run', stage: 'tlc', reason: 'no tla2tools.jar (set TLA2TOOLS_JAR)' });
    expect(rows.M1!.cells.impl.verdict).toBe('not-selected');
    expect(rows.L1!.cells.tla.verdict).toBe('n/a');
    expect(rows.L1!.cells.impl.verdict).toBe('not-selected');
  });

  it('fails for a failed stage, a crashed stage and a surviving mutant, and lists the waived stage', () => {
    expect(r.verdict.exitCode).toBe(1);
    expect(r.verdict.reasons).toEqual([
      'stage mutants:model failed: 15/16 mutants killed; not killed: M3 survived',
      'stage props did not complete: killed by SIGSEGV',
      'mutant M3 at layer model: survived: exploration finished with every invariant holding',
    ]);
    expect(r.verdict.waived).toEqual(['stage tlc not run (allowed): no tla2tools.jar (set TLA2TOOLS_JAR)']);
  });

  it("prefers a model's live TLC block (the tlc stage's report) over its evidence, model by model", () => {
    const live = { ...EVIDENCE_BASE, specSha256: 'cd'.repeat(32), tlcVersion: 'TLC2 live', generated: 10, distinct: 5, depth: 3, durationMs: 99 };
    const pause = { ...EVIDENCE_BASE, spec: 'tla/pause/PauseSnapshot.tla', config: 'tla/pause/PauseSnapshot.cfg', specSha256: 'ef'.repeat(32) };
    const tlcRan = stageReport({ stage: 'tlc', status: 'passed', startedAt: '', durationMs: 1, summary: 'ok', details: { tlcModels: [tlcModelBlock(live, 'live')] } });
    const evidence = fixtureReport().stages.find((o) => o.stage === 'evidence')!;
    const withPause = { ...evidence, report: { ...evidence.report!, details: { tlcModels: [tlcModelBlock(EVIDENCE_BASE, 'evidence'), tlcModelBlock(pause, 'evidence')] } } };
    const outcomes = fixtureReport().stages.map((o) => (o.stage === 'tlc' ? { ...o, status: 'passed' as const, report: tlcRan } : o.stage === 'evidence' ? withPause : o));
    expect(tlcSummary(outcomes).map((t) => [t.model, t.from, t.specSha256, t.distinct])).toEqual([
      ['RedisClusterFencingMigration', 'live', 'cd'.repeat(32), 5],
      ['PauseSnapshot', 'evidence', 'ef'.repeat(32), 3637],
    ]);
    // A stage that did not run vouches for nothing: its blocks are not quoted.
    const notRun = outcomes.map((o) => (o.stage === 'tlc' ? { ...o, status: 'not-run' as const } : o));
    expect(tlcSummary(notRun).map((t) => t.from)).toEqual(['evidence', 'evidence']);
  });

  it('takes the TLC figures from the evidence stage when TLC did not run here', () => {
    expect(r.tlc).toHaveLength(1);
    expect(r.tlc[0]).toMatchObject({
      model: 'RedisClusterFencingMigration',
      from: 'evidence',
      specSha256: 'ab'.repeat(32),
      tlcVersion: '2.19 of 08 August 2024',
      generated: 12636,
      distinct: 3637,
      depth: 27,
      durationMs: 4200,
    });
  });
});

describe('JUnit XML', () => {
  const xml = junitXml(fixtureReport());
  it('has one testcase per stage, per mutant × layer (n/a left out) and the not-run gate', () => {
    // 6 stages + 3 not selected; M1–M9, P1–P6, R1 × tla/model/impl + L1–L6 × limiter; the gate.
    expect(xml.match(/<testcase /g)).toHaveLength(9 + 48 + 6 + 1);
    expect(xml).toMatch(/<testsuites name="fencecheck verify" tests="64" failures="2" errors="1" time="/);
    expect(xml).toContain('<testcase classname="fencecheck.stage" name="tlc" time="0.310">\n      <skipped message="not run: no tla2tools.jar (set TLA2TOOLS_JAR) (allowed)"/>');
    expect(xml).toMatch(/name="props"[^>]*>\n\s*<error message="killed by SIGSEGV">/);
    expect(xml).toMatch(/classname="fencecheck.mutants.model" name="M3 \[model\] AcquireB_MaxMerge -&gt; Inv_Monotonic"[^>]*>\n\s*<failure message="survived \(expected Inv_Monotonic to kill it\)/);
    expect(xml).toMatch(/classname="fencecheck.mutants.model" name="M1 \[model\] [^"]*" time="0.000">\n\s*<system-out>killed: Inv_SingleAuthority\ntrace: reports\/traces\/model-M1.trace.json/);
    expect(xml).toMatch(/name="every selected stage ran \(or is named by --allow-not-run\)" time="0.000"\/>/);
    // Balanced: every opened testcase is closed or self-closed.
    expect((xml.match(/<testcase [^>]*[^/]>/g) ?? []).length).toBe((xml.match(/<\/testcase>/g) ?? []).length);
  });

  it('marks an unwaived not-run stage as a gate failure, and escapes what XML cannot carry', () => {
    const r = fixtureReport();
    const notWaived = { ...r, stages: r.stages.map((o) => (o.stage === 'tlc' ? { ...o, allowedNotRun: false, reason: 'jar <missing> & "gone"\u0001' } : o)) };
    const x = junitXml(notWaived);
    expect(x).toContain('<failure message="not run and not allowed: tlc"/>');
    expect(x).toContain('jar &lt;missing&gt; &amp; &quot;gone&quot; (not allowed: verify fails)');
    expect(x).not.toContain('\u0001');
  });
});

describe('Markdown and HTML reports', () => {
  const root = fixtureRoot();
  const report = fixtureReport();
  const view = buildView(report, loadReportTraces(report, root));

  it('Markdown: the matrix with links to the embedded trace, its step table and a Mermaid block', () => {
    const md = renderMarkdown(view);
    expect(md).toMatch(/^# fencecheck verify — FAILED/);
    expect(md).toMatch(new RegExp(`\\| M1 \\| AcquireB_OldLeaseFree \\| Inv_SingleAuthority \\| ⚠️ not run \\| \\[✅ killed: Inv_SingleAuthority\\]\\(#${traceAnchor(M1_TRACE_PATH)}\\) \\|`));
    expect(md).toContain('| M3 | AcquireB_MaxMerge | Inv_Monotonic | ⚠️ not run | ❌ survived |');
    expect(md).toContain('| **spec SHA-256** | ' + 'ab'.repeat(32) + ' |');
    expect(md).toContain('```mermaid\nsequenceDiagram');
    expect(md).toMatch(/\| 8 \| AcquireB\(p1\) \| p1 \| B \| A \| A \| B \| p2 \| 1 \| \*\*p1\*\* \| \*\*2\*\* \|/);
    expect(md).toContain("| deny | any | deny first (1) | update first's refill state; second untouched | 311 (622) | ⚠️ 0 (0) |");
  });

  it('HTML: self-contained (no script, no external URL) with inline SVG for each trace', () => {
    const html = renderHtml(view);
    expect(html).not.toMatch(/<script|<link |src="http|href="http|url\(http/);
    expect(html).toContain(`<details class="trace" id="${traceAnchor(M1_TRACE_PATH)}-details">`);
    expect(html).toContain(`<div class="trace-body" id="${traceAnchor(M1_TRACE_PATH)}">`);
    // The replay command sits in the summary: visible while the trace is collapsed.
    expect(html).toContain(`<code class="replay">replay: fencecheck trace replay ${M1_TRACE_PATH}</code></summary>`);
    expect(renderMarkdown(view)).toContain(`Replay: \`fencecheck trace replay ${M1_TRACE_PATH}\`\n\n<details><summary>Steps and sequence diagram (9 states)</summary>`);
    expect(html.match(/<svg /g)).toHaveLength(1);
    expect(html).toContain('<td class="changed">p1</td><td class="changed">2</td>');
    expect(html).toMatch(/<td class="bad"[^>]*>survived<\/td>/);
  });

  it('writes the four files, and the JSON is the document itself', () => {
    const out = join(root, 'out');
    const files = writeVerifyReports(report, out, root);
    expect(JSON.parse(readFileSync(files.json, 'utf8'))).toEqual(report);
    // The matrix carries its mutation score, so verify.json and `verify --json` both have it.
    expect(report.mutationMatrix.score).toEqual(mutationScore({ layers: report.mutationMatrix.layers, rows: report.mutationMatrix.rows }));
    expect(readFileSync(files.junit, 'utf8')).toMatch(/^<\?xml/);
    expect(readFileSync(files.markdown, 'utf8')).toContain('## Mutation matrix');
    // A trace not embedded would be linked relative to the report; this one is embedded.
    expect(readFileSync(files.html, 'utf8')).toContain(`href="#${traceAnchor(M1_TRACE_PATH)}"`);
  });

  it("embeds a seam system's TLC counterexample as its step table, linked by anchor, not as unreadable", () => {
    // A real TLC run of tla/pause/mutants/P5.cfg (test/tlc/fixtures/pause-P5.out).
    const trace = toTlaTrace(parseToolOutput(readFileSync(fixturePath('pause-P5.out'), 'utf8')), 'PauseSnapshot.tla')!;
    const path = 'reports/traces/tla-P5.trace.json';
    writeFileSync(join(root, path), JSON.stringify(trace));
    const r = { ...report, traces: [...report.traces, path] };
    const v = buildView(r, loadReportTraces(r, root));
    const md = renderMarkdown(v);
    const html = renderHtml(v);
    expect(md).toContain(`<a id="${traceAnchor(path)}"></a>`);
    expect(md).toMatch(/### reports\/traces\/tla-P5\.trace\.json · .*violates Inv_ReadyAfterSnapshot/);
    expect(md).toMatch(/# +\| action +\|/);
    expect(html).toContain(`<h3 id="${traceAnchor(path)}">`);
    expect(html).not.toMatch(/Traces that could not be read/);
  });

  it('lists a trace it cannot read instead of failing the report', () => {
    const r = { ...report, traces: [...report.traces, 'reports/traces/missing.json'] };
    const html = renderHtml(buildView(r, loadReportTraces(r, root)));
    expect(html).toMatch(/Traces that could not be read:.*reports\/traces\/missing.json: cannot read trace/s);
  });
});

describe('limiter table', () => {
  const stats = (n: number) => ({
    cases: 10,
    maxCaseMs: 1,
    slowCases: 0,
    casesPerRow: { 'deny-first': n, 'deny-second': 2, 'allow-both': 3, 'single-allow': 4, 'single-deny': 5, error: 6, unknown: 0 },
    calls: { 'deny-first': n * 2, 'deny-second': 2, 'allow-both': 3, 'single-allow': 4, 'single-deny': 5, error: 6, unknown: 0 },
  });
  const inv = (status: 'passed' | 'not-run', detail: string) => [{ name: 'script_flush_fallback', title: 'SCRIPT FLUSH exercises the fallback', status, detail }];
  it('lays the transition table out per topology, with the invariant tests', () => {
    const section = limiterSection([
      { topology: 'standalone', status: 'ran', property: { passed: true, topology: 'standalone', numRuns: 10, seed: 7, faults: false, stats: stats(11) }, invariants: inv('passed', 'one EVAL') },
      { topology: 'cluster', status: 'ran', property: { passed: true, topology: 'cluster', numRuns: 10, seed: 8, faults: false, stats: stats(0) }, invariants: inv('not-run', 'one EVAL') },
    ]);
    expect(section).toMatchObject({ id: 'stage-limiter', title: 'Limiter table' });
    const table = section.blocks.find((b) => b.kind === 'table' && b.id === 'limiter-table');
    if (table?.kind !== 'table') throw new Error('no limiter table');
    expect(table.columns).toEqual(['first', 'second', 'result', 'state mutation', 'standalone: cases (calls)', 'cluster: cases (calls)']);
    expect(table.rows[0]!.map((c) => c.text)).toEqual(['deny', 'any', 'deny first (1)', "update first's refill state; second untouched", '11 (22)', '0 (0)']);
    // A row no generated case exercised is flagged.
    expect(table.rows[0]![5]!.tone).toBe('warn');
    const invariants = section.blocks.filter((b) => b.kind === 'table')[1];
    if (invariants?.kind !== 'table') throw new Error('no invariant table');
    expect(invariants.rows[0]!.map((c) => c.text)).toEqual(['SCRIPT FLUSH exercises the fallback', 'passed', 'not-run', 'one EVAL']);
  });
  it('a topology that did not run: no column, its reason in the list', () => {
    const section = limiterSection([{ topology: 'cluster', status: 'not-run', reason: 'no valkey-server on PATH' }]);
    const table = section.blocks.find((b) => b.kind === 'table');
    if (table?.kind !== 'table') throw new Error('no limiter table');
    expect(table.columns).toHaveLength(4);
    expect(section.blocks).toContainEqual({ kind: 'list', items: ['cluster: not run: no valkey-server on PATH'] });
  });
});
