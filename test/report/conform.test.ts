/**
 * The conform stage in verify's reports, from real `fencecheck conform --json` outputs captured by
 * running the command (test/report/fixtures/conform-pass.json, conform-M1.json): the stage's report
 * carries its Conformance section and conform suite (src/seam/tour/sections.ts) and
 * verify.json keeps it whole; JUnit has the conform suite with one case per action, and the Markdown
 * and HTML reports have the Conformance section with the coverage, the per-action table and the
 * first mismatch drawn as a trace with its replay command.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { coveragePercent } from '../../src/core/percent.js';
import { readReportDetails, type ReportBlock, type ReportSection } from '../../src/core/report-details.js';
import { actionFiguresText, conformNotRunDetails, conformReportDetails, type ConformFigures } from '../../src/seam/tour/sections.js';
import { renderHtml } from '../../src/report/html.js';
import { junitXml } from '../../src/report/junit.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import type { VerifyReport } from '../../src/report/verify-doc.js';
import { buildView, traceAnchor } from '../../src/report/view.js';
import { loadReportTraces, writeVerifyReports } from '../../src/report/write.js';
import type { Step, Trace } from '../../src/core/trace-format.js';
import { validateTrace } from '../../src/trace/load.js';
import { withSystem } from '../../src/trace/systems.js';
import { traceMermaid } from '../../src/trace/mermaid.js';
import { traceSvg } from '../../src/trace/svg.js';
import { CONFORM_M1_TRACE_PATH, conformOutcome, conformStdout, conformTraceText, fixtureReport, fixtureRoot } from './fixtures.js';

const REPLAY = `fencecheck trace replay ${CONFORM_M1_TRACE_PATH}`;

/** The figures a captured report carries, as the command hands them to its report builder. */
function figuresOf(raw: any): ConformFigures {
  const d = raw.details;
  return {
    system: d.system,
    bounds: d.boundsLabel,
    checks: d.checks,
    states: d.states,
    attempts: d.attempts,
    depth: d.depth,
    durationMs: d.durationMs,
    model: d.model,
    covered: d.covered,
    byAction: d.byAction,
    equalToModel: d.equalToModel,
    failure: d.failure ? { ...d.failure, steps: d.failure.path - 1 } : null,
  };
}

/** The captured stdout, its figures edited, its section and suite rebuilt from them as the command builds them. */
function edited(which: 'pass' | 'M1', edit: (raw: any) => void): VerifyReport {
  const raw = JSON.parse(conformStdout(which));
  edit(raw);
  const shown = conformReportDetails(figuresOf(raw), {
    passed: raw.status === 'passed',
    summary: raw.summary,
    ...(raw.reason ? { reason: raw.reason } : {}),
    ...(raw.traces ? { tracePath: raw.traces[0] } : {}),
    ...(raw.details.replay ? { replay: raw.details.replay } : {}),
  });
  raw.details = { ...raw.details, ...shown };
  return fixtureReport({ conform: conformOutcome({ stdout: JSON.stringify(raw), exitCode: raw.status === 'passed' ? 0 : 1 }) });
}

/** What `conform --json` prints when no Valkey can be started. */
const NOT_RUN = JSON.stringify({
  schema: 'fencecheck.stage/1',
  stage: 'conform',
  status: 'not-run',
  reason: 'no valkey-server on PATH',
  startedAt: '',
  durationMs: 5,
  summary: 'conform not run: no valkey-server on PATH',
  details: conformNotRunDetails('no valkey-server on PATH'),
});

/** The conform stage's Conformance section, as its report carries it. */
function conformSection(r: VerifyReport): ReportSection {
  const s = readReportDetails(r.stages.find((o) => o.stage === 'conform')!.report!.details).sections.find((x) => x.id === 'conformance');
  if (!s) throw new Error('no Conformance section');
  return s;
}
const blocksOf = <K extends ReportBlock['kind']>(s: ReportSection, kind: K) => s.blocks.filter((b): b is Extract<ReportBlock, { kind: K }> => b.kind === kind);
const fields = (s: ReportSection) => Object.fromEntries(blocksOf(s, 'kv').flatMap((b) => b.rows));

/** The <testsuite name="fencecheck.conform"> element, and its testcase named `name`. */
function conformSuite(xml: string): string {
  const m = xml.match(/<testsuite name="fencecheck.conform"[\s\S]*?<\/testsuite>/);
  if (!m) throw new Error('no conform testsuite');
  return m[0];
}
function testcase(xml: string, name: string): string {
  const m = conformSuite(xml).match(new RegExp(`<testcase classname="fencecheck.conform" name="${name}"[^>]*?(/>|>[\\s\\S]*?</testcase>)`));
  if (!m) throw new Error(`no conform testcase ${name}`);
  return m[0];
}
function html(r: VerifyReport, root = fixtureRoot()): string {
  return renderHtml(buildView(r, loadReportTraces(r, root)));
}
function section(doc: string, id: string): string {
  const m = doc.match(new RegExp(`<section id="${id}">[\\s\\S]*?</section>`));
  if (!m) throw new Error(`no section ${id}`);
  return m[0];
}
function mdSection(md: string, title: string): string {
  const start = md.indexOf(`## ${title}\n`);
  if (start < 0) throw new Error(`no ${title} section`);
  const end = md.indexOf('\n## ', start + 1);
  return md.slice(start, end < 0 ? undefined : end);
}

describe('verify JSON', () => {
  it("keeps the conform stage's report whole, its Conformance section carrying the coverage", () => {
    const raw = JSON.parse(conformStdout('pass'));
    const r = fixtureReport({ conform: 'pass' });
    const o = r.stages.find((s) => s.stage === 'conform')!;
    expect(o).toMatchObject({ status: 'passed', exitCode: 0, counts: raw.counts });
    // Interpreted as verify interprets a child: the stage's details survive untouched.
    expect(o.report).toEqual(raw);
    const s = conformSection(r);
    expect(blocksOf(s, 'coverage')[0]!.rows).toEqual([
      { name: 'states', executed: 4117, model: 4117 },
      { name: 'transitions', executed: 15636, model: 15636 },
      { name: 'refused attempts', executed: 84378, model: 84378 },
    ]);
    expect(fields(s)).toMatchObject({
      checks: 'full conformance: every decision and successor, every invariant, TTL rules, T3, read side',
      bounds: 'Pods = {p1, p2, p3}, MaxGen = 4',
      'real states reached': '4117',
      'attempts executed': '104958',
      "real graph = model's": 'yes',
    });
    const actions = blocksOf(s, 'table').find((t) => t.id === 'conform-actions')!;
    expect(actions.rows).toHaveLength(Object.keys(raw.details.byAction).length);
    expect(actions.rows.find((row) => row[0]!.text === 'AdvanceTarget')!.map((c) => [c.text, c.tone])).toEqual([
      ['AdvanceTarget', undefined],
      ['253 / 253 (100.0 %)', 'ok'],
      ['3864 / 3864 (100.0 %)', 'ok'],
      ['100.0 %', 'ok'],
    ]);
    expect(blocksOf(s, 'trace')).toEqual([]);
    expect(r.verdict.exitCode).toBe(1); // the base fixture's own failures; conform adds none
    expect(r.verdict.reasons.some((l) => l.includes('conform'))).toBe(false);
  });

  it('a failing tour: the failure, the trace, the replay command, and a verdict reason', () => {
    const r = fixtureReport({ conform: 'M1' });
    const s = conformSection(r);
    expect(blocksOf(s, 'coverage')[0]!.rows[0]).toEqual({ name: 'states', executed: 220, model: 4117 });
    expect(fields(s)).toMatchObject({
      checks: 'Inv_SingleAuthority alone',
      'real states reached': '221 (1 the model never reaches)',
      "real graph = model's": 'unknown (the tour stopped at the first failure)',
      path: '8 steps from Init',
      trace: CONFORM_M1_TRACE_PATH,
    });
    expect(s.blocks).toContainEqual({ kind: 'p', text: 'Inv_SingleAuthority: Inv_SingleAuthority violated on the real keyspace', tone: 'bad' });
    expect(s.blocks).toContainEqual({ kind: 'code', text: REPLAY });
    expect(blocksOf(s, 'trace')).toEqual([{ kind: 'trace', path: CONFORM_M1_TRACE_PATH, replay: REPLAY }]);
    expect(r.traces).toContain(CONFORM_M1_TRACE_PATH);
    expect(r.verdict.reasons).toContain('stage conform failed: Inv_SingleAuthority: Inv_SingleAuthority violated on the real keyspace');
    // The written verify.json is the document, the stage's details included.
    const root = fixtureRoot();
    const files = writeVerifyReports(r, join(root, 'out'), root);
    const doc = JSON.parse(readFileSync(files.json, 'utf8')) as VerifyReport;
    expect(doc.stages.find((st) => st.stage === 'conform')!.report).toEqual(JSON.parse(conformStdout('M1')));
  });

  it('coverage short of every one is never 100.0 %, and nothing in the model is 100 %', () => {
    expect(coveragePercent(15635, 15636)).toBe(99.9);
    expect(coveragePercent(713, 15636)).toBe(4.6); // as `fencecheck conform` prints it
    expect(coveragePercent(0, 0)).toBe(100);
    const acquire = JSON.parse(conformStdout('M1')).details.byAction.acquire;
    expect(actionFiguresText({ transitions: [acquire.transitions, acquire.modelTransitions], refused: [acquire.refused, acquire.modelRefused] })).toBe('refused attempts 342 / 10593 (3.2 %)');
  });

  it('not selected: no section; not run: the section with the reason and no figures', () => {
    expect(buildView(fixtureReport(), new Map()).sections.find((x) => x.id === 'conformance')).toBeUndefined();
    const r = fixtureReport({ conform: conformOutcome({ stdout: NOT_RUN, exitCode: 2 }) });
    expect(conformSection(r).blocks).toEqual([]);
  });
});

describe('JUnit: the fencecheck.conform suite', () => {
  it('a passing tour: one passing case for the tour and one per action or attempt kind', () => {
    const xml = junitXml(fixtureReport({ conform: 'pass' }));
    const actions = Object.keys(JSON.parse(conformStdout('pass')).details.byAction);
    expect(conformSuite(xml)).toMatch(new RegExp(`^<testsuite name="fencecheck.conform" tests="${actions.length + 1}" failures="0" errors="0" skipped="0"`));
    for (const a of actions) expect(testcase(xml, a)).not.toMatch(/<failure|<error|<skipped/);
    expect(testcase(xml, 'AcquireB')).toContain('<system-out>transitions 624 / 624 (100.0 %)</system-out>');
    expect(testcase(xml, 'AdvanceTarget')).toContain('<system-out>transitions 253 / 253 (100.0 %), refused attempts 3864 / 3864 (100.0 %)</system-out>');
    expect(testcase(xml, 'conformance tour')).toContain('states 4117 / 4117 (100.0 %)\ntransitions 15636 / 15636 (100.0 %)\nrefused attempts 84378 / 84378 (100.0 %)');
    // The whole file still adds up: the conform suite's cases are in the top-level count.
    const total = (xml.match(/<testcase /g) ?? []).length;
    expect(xml).toMatch(new RegExp(`<testsuites name="fencecheck verify" tests="${total}" `));
  });

  it('a failing tour: failing cases whose body holds the failure and the replay command', () => {
    const xml = junitXml(fixtureReport({ conform: 'M1' }));
    const tour = testcase(xml, 'conformance tour');
    expect(tour).toContain('<failure message="Inv_SingleAuthority: Inv_SingleAuthority violated on the real keyspace">');
    expect(tour).toContain(`replay: ${REPLAY}`);
    const acquireB = testcase(xml, 'AcquireB');
    expect(acquireB).toContain('<failure message="AcquireB: executed 0.5 % of the model (transitions 3 / 624 (0.5 %)); the tour stopped at Inv_SingleAuthority">');
    expect(acquireB).toContain(`trace: ${CONFORM_M1_TRACE_PATH}\nreplay: ${REPLAY}`);
    // The tour stopped after 8 steps: no action is fully covered.
    const n = Object.keys(JSON.parse(conformStdout('M1')).details.byAction).length;
    expect(conformSuite(xml)).toMatch(new RegExp(`tests="${n + 1}" failures="${n + 1}" errors="0"`));
  });

  it('fails exactly the action whose coverage falls short, even when the stage passed', () => {
    const xml = junitXml(edited('pass', (raw) => (raw.details.byAction.MigrateB.transitions -= 1)));
    expect(testcase(xml, 'MigrateB')).toContain('<failure message="MigrateB: executed 99.7 % of the model (transitions 347 / 348 (99.7 %))">');
    expect(conformSuite(xml)).toMatch(/failures="1"/);
    // Refused attempts count as much as transitions: one short fails its action too.
    const refused = junitXml(edited('pass', (raw) => (raw.details.byAction.renew.refused -= 1)));
    expect(testcase(refused, 'renew')).toContain('<failure message="renew: executed 99.9 % of the model (refused attempts 12779 / 12780 (99.9 %))">');
    // Coverage short of the model's totals fails the tour case, whatever the stage said.
    const short = junitXml(edited('pass', (raw) => (raw.details.covered.refused -= 1)));
    expect(testcase(short, 'conformance tour')).toContain(
      '<failure message="the stage passed but the tour executed only states 4117 / 4117 (100.0 %), transitions 15636 / 15636 (100.0 %), refused attempts 84377 / 84378 (99.9 %)">',
    );
  });

  it('marks the action of a conformance mismatch, with the real outcome and the model prediction', () => {
    const r = edited('M1', (raw) => {
      raw.details.checks = { kind: 'conformance' };
      raw.details.failure = {
        check: 'Conformance',
        message: 'renew(p1@1): the real system did refused (no lease), the model predicts renewed old',
        attempt: 'renew(p1@1)',
        real: 'refused → k1',
        predicted: 'renewed old → k1',
        path: 3,
      };
    });
    const actions = blocksOf(conformSection(r), 'table').find((t) => t.id === 'conform-actions')!;
    expect(actions.columns.at(-1)).toBe('first mismatch');
    expect(actions.rows.filter((row) => row.at(-1)!.text !== '').map((row) => row[0]!.text)).toEqual(['renew']);
    const xml = junitXml(r);
    const renew = testcase(xml, 'renew');
    expect(renew).toContain('<failure message="first mismatch at renew(p1@1): Conformance: renew(p1@1): the real system did refused (no lease), the model predicts renewed old">');
    expect(renew).toContain('attempt: renew(p1@1)\nreal:    refused → k1\nmodel:   renewed old → k1\npath: 2 steps from Init');
    expect(renew).toContain(`replay: ${REPLAY}`);
    const h = section(html(r), 'conformance');
    expect(h).toMatch(/<tr><td>renew<\/td>.*<td class="bad">renew\(p1@1\)<\/td><\/tr>/);
    expect(h).toContain('<tr><th>model predicts</th><td>renewed old → k1</td></tr>');
  });

  it('a conform stage that did not run is one skipped case; one that printed no report or crashed has only its stage case', () => {
    const skipped = conformSuite(junitXml(fixtureReport({ conform: conformOutcome({ stdout: NOT_RUN, exitCode: 2 }) })));
    expect(skipped).toMatch(/tests="1" failures="0" errors="0" skipped="1"/);
    expect(skipped).toContain('<skipped message="not run: no valkey-server on PATH"/>');
    // No report, no suite: the stage's own case in fencecheck.stages says what happened.
    const silent = junitXml(fixtureReport({ conform: conformOutcome({ stdout: '', exitCode: 1 }) }));
    expect(silent).not.toContain('fencecheck.conform');
    expect(silent).toMatch(/<testcase classname="fencecheck.stage" name="conform"[^>]*>\n\s*<(failure|error) message="/);
    const killed = { ...conformOutcome({ stdout: conformStdout('pass'), exitCode: 0 }), status: 'error' as const, reason: 'killed by SIGKILL', exitCode: null, signal: 'SIGKILL' };
    // A stage that did not end as its report says: the report's suite is not trusted.
    const k = junitXml(fixtureReport({ conform: killed }));
    expect(k).not.toContain('fencecheck.conform');
    expect(k).toMatch(/<testcase classname="fencecheck.stage" name="conform"[^>]*>\n\s*<error message="killed by SIGKILL">/);
    expect(junitXml(fixtureReport())).not.toContain('fencecheck.conform');
  });
});

describe('Markdown and HTML: the Conformance section', () => {
  it('a passing tour: coverage executed / model total and %, the per-action table, no mismatch', () => {
    const r = fixtureReport({ conform: 'pass' });
    const md = mdSection(renderMarkdown(buildView(r, loadReportTraces(r, fixtureRoot()))), 'Conformance');
    expect(md).toContain('✅ passed: Pods=3 MaxGen=4, conformance');
    expect(md).toContain('| coverage | executed | model total | % |');
    expect(md).toContain('| states | 4117 | 4117 | ✅ 100.0 % |');
    expect(md).toContain('| transitions | 15636 | 15636 | ✅ 100.0 % |');
    expect(md).toContain('| refused attempts | 84378 | 84378 | ✅ 100.0 % |');
    expect(md).toContain("| **real graph = model's** | yes |");
    expect(md).toContain('| action or attempt | transitions | refused attempts | coverage |\n');
    expect(md).toContain('| AdvanceTarget | ✅ 253 / 253 (100.0 %) | ✅ 3864 / 3864 (100.0 %) | ✅ 100.0 % |\n');
    expect(md).toContain('| renew | — | ✅ 12780 / 12780 (100.0 %) | ✅ 100.0 % |\n');
    expect(md).not.toContain('First mismatch');
    const h = section(html(r), 'conformance');
    expect(h).toContain('<h2>Conformance</h2>');
    expect(h).toContain('<tr><td>states</td><td>4117</td><td>4117</td><td class="ok">100.0 %</td></tr>');
    expect(h).toMatch(/<table id="conform-actions" class="nowrap">/);
    expect(h).not.toContain('<details class="trace"');
  });

  it('a failing tour: the first mismatch drawn as its trace, with the replay command', () => {
    const r = fixtureReport({ conform: 'M1' });
    const root = fixtureRoot();
    const full = renderMarkdown(buildView(r, loadReportTraces(r, root)));
    const md = mdSection(full, 'Conformance');
    expect(md).toContain('| states | 220 | 4117 | ❌ 5.3 % |');
    expect(md).toContain('| **real states reached** | 221 (1 the model never reaches) |');
    // The invariant broke at an attempt: its row is marked in the last column.
    expect(md).toContain('| AcquireB | ❌ 3 / 624 (0.5 %) | — | ❌ 0.5 % |  |\n');
    expect(md).toMatch(/\| acquire \| — \| ❌ 342 \/ 10593 \(3\.2 %\) \| ❌ 3\.2 % \| ❌ acquire\(p1\) \|\n/);
    expect(md).toContain('#### First mismatch\n\n❌ Inv_SingleAuthority: Inv_SingleAuthority violated on the real keyspace');
    expect(md).toContain(`\`\`\`\n${REPLAY}\n\`\`\``);
    expect(md).toContain(`<a id="${traceAnchor(CONFORM_M1_TRACE_PATH)}"></a>`);
    // The steps are the model's actions, and what the real system did at each. (The captured trace is
    // fencecheck.trace/1, read without its system here: the pods' versions are a record, split per field.)
    expect(md).toContain(
      '| # | action | actor | version.p1 | version.p2 | version.p3 | target | oldLease.owner | oldLease.gen | newLease.owner | newLease.gen | oldGen | newGen | backfilled | mode | lastIssued | monoOk | broken | real system |',
    );
    expect(md).toMatch(/\| 8 \| AcquireB\(p1\) \| p1 \| B \| A \| A \| B \| p1 \| 1 \| \*\*p1\*\* \| \*\*2\*\* \|.*\| ❌ Inv_SingleAuthority \| acquire: issued 2 \|/);
    expect(md).toContain('```mermaid\nsequenceDiagram\n  title fencing conform trace under M1 violating Inv_SingleAuthority');
    // Drawn once, in its section, not again among the other traces.
    expect(full.split(`<a id="${traceAnchor(CONFORM_M1_TRACE_PATH)}">`)).toHaveLength(2);

    const doc = html(r, root);
    const h = section(doc, 'conformance');
    expect(h).toContain('<tr><td>transitions</td><td>713</td><td>15636</td><td class="bad">4.6 %</td></tr>');
    expect(h).toContain(`<pre>${REPLAY}</pre>`);
    // Collapsed like every trace; the replay command is in its summary, visible while closed.
    expect(h).toContain(`<details class="trace" id="${traceAnchor(CONFORM_M1_TRACE_PATH)}-details">\n<summary><strong>${CONFORM_M1_TRACE_PATH}</strong>`);
    expect(h).toContain(`<code class="replay">replay: ${REPLAY}</code></summary>\n<div class="trace-body" id="${traceAnchor(CONFORM_M1_TRACE_PATH)}">`);
    expect(h).toContain(`<svg xmlns="http://www.w3.org/2000/svg" class="seq" id="svg-${traceAnchor(CONFORM_M1_TRACE_PATH)}"`);
    expect(h).toContain('<td class="observed">acquire: issued 2</td>');
    expect(doc.match(new RegExp(`id="${traceAnchor(CONFORM_M1_TRACE_PATH)}"`, 'g'))).toHaveLength(1);
    expect(doc).not.toMatch(/<script|<link |src="http|href="http|url\(http/);
    expect(section(doc, 'traces')).not.toContain(CONFORM_M1_TRACE_PATH);
  });

  it('says so when the trace cannot be read, and still gives the replay command', () => {
    const r = fixtureReport({ conform: 'M1' });
    const h = section(renderHtml(buildView(r, new Map())), 'conformance');
    expect(h).toContain(`<pre>${REPLAY}</pre>`);
    expect(h).toContain('<p class="warn">The trace could not be read: not found</p>');
  });

  it('a conform stage that did not run: its reason, no figures', () => {
    const h = section(html(fixtureReport({ conform: conformOutcome({ stdout: NOT_RUN, exitCode: 2 }) })), 'conformance');
    expect(h).toContain('<p class="warn">not run: no valkey-server on PATH</p>');
    expect(h).not.toContain('<table');
    expect(html(fixtureReport())).not.toContain('id="conformance"');
  });
});

describe('conform traces with attempt steps render', () => {
  // A mutated script that changes the keyspace where the model refuses gives steps named after the
  // attempt (Acquire, Renew, Release, Expire, Upgrade, Downgrade) instead of a model action. The
  // captured tour trace is fencecheck.trace/1: read through the fencing system as the loader does.
  let trace: Trace;
  beforeAll(async () => {
    const base = await withSystem(validateTrace(JSON.parse(conformTraceText())));
    const last = base.steps[base.steps.length - 1]!;
    const s = last.state;
    const step = (action: string, params: Step['params'], state: Step['state'], decision: string, note: string): Step => ({
      action,
      params,
      state,
      observed: { attempt: action.toLowerCase(), decision, note },
    });
    const free = { owner: 'None', gen: { '#bigint': '0' } };
    const withP3 = (st: Step['state'], phase: string): Step['state'] => ({
      ...st,
      version: {
        '#map': [
          ['p1', 'B'],
          ['p2', 'A'],
          ['p3', phase],
        ],
      },
    });
    const released = { ...s, oldLease: free };
    const expired = { ...released, newLease: free };
    const upgraded = withP3(expired, 'B');
    trace = {
      ...base,
      steps: [
        ...base.steps.slice(0, -1),
        { ...last, action: 'Acquire', observed: { attempt: 'acquire', decision: 'transition', note: 'issued 2' } },
        step('Renew', { p: 'p2', gen: { '#bigint': '1' } }, s, 'refused', 'not the owner'),
        step('Release', { p: 'p1', gen: { '#bigint': '1' } }, released, 'transition', 'old lease deleted'),
        step('Expire', { which: 'new' }, expired, 'transition', 'new lease gone'),
        step('Upgrade', { p: 'p3' }, upgraded, 'transition', 'p3: A → B'),
        step('Downgrade', { p: 'p3' }, withP3(upgraded, 'A'), 'transition', 'p3: B → A'),
      ],
    };
  });

  it('as SVG and Mermaid: each step a message from its actor to the state, with what it changed', () => {
    const svg = traceSvg(trace, 'x');
    const label = (i: number) => svg.match(new RegExp(`<g class="message" data-step="${i}">[\\s\\S]*?<text[^>]*>([^<]*)</text>`))?.[1];
    expect(label(8)).toBe('8. Acquire(p1): newLease.owner := p1, newLease.gen := 2, newGen := 2, lastIssued := 2');
    expect(label(9)).toBe('9. Renew(p2, 1): (no change)');
    expect(label(10)).toBe('10. Release(p1, 1): oldLease.owner := None, oldLease.gen := 0');
    expect(label(11)).toBe('11. Expire(new): newLease.owner := None, newLease.gen := 0');
    expect(label(12)).toBe('12. Upgrade(p3): version[p3] := B');
    expect(label(13)).toBe('13. Downgrade(p3): version[p3] := A');
    const mermaid = traceMermaid(trace);
    expect(mermaid).toContain('a_p1->>state: 8. Acquire(p1): newLease.owner := p1, newLease.gen := 2, newGen := 2, lastIssued := 2');
    expect(mermaid).toContain('a_p2->>state: 9. Renew(p2, 1): (no change)');
    expect(mermaid).toContain('a_p1->>state: 10. Release(p1, 1): oldLease.owner := None, oldLease.gen := 0');
    // ITF cannot tell a string from a model value: the tour's `which: new` reads as the expiry's actor.
    expect(mermaid).toContain('a_new->>state: 11. Expire(new): newLease.owner := None, newLease.gen := 0');
  });

  it('in the report: the step table names the attempt, its actor, and what the real system did', () => {
    const r = fixtureReport({ conform: 'M1' });
    const view = buildView(r, new Map([[CONFORM_M1_TRACE_PATH, { trace }]]));
    const h = section(renderHtml(view), 'conformance');
    // The refused renew is drawn as refused: struck through, no state repeated, its note instead.
    expect(h).toMatch(
      /<tr class="refused" data-step="9"><td>9<\/td><td class="action">Renew\(p2, 1\)<\/td><td>p2<\/td><td class="refusal" colspan="14">refused: not the owner — state unchanged<\/td>.*<td class="observed">renew \(refused\): not the owner<\/td><\/tr>/,
    );
    expect(h).toMatch(/<g class="message refused" data-step="9">\n<line [^>]*stroke-dasharray="5 4" stroke="#333"\/>\n<text [^>]*>9\. ✗ refused: Renew\(p2, 1\) — not the owner<\/text>/);
    expect(h).toMatch(/<tr data-step="11"><td>11<\/td><td>Expire\(new\)<\/td><td>new<\/td>/);
    expect(h).toContain('<g class="message" data-step="13">');
    const md = mdSection(renderMarkdown(view), 'Conformance');
    expect(md).toMatch(/\| 10 \| Release\(p1, 1\) \| p1 \| .*\| release: old lease deleted \|/);
    expect(md).toContain('a_p3->>state: 13. Downgrade(p3): version[p3] := A');
    expect(md).toContain('a_p2--xstate: 9. ✗ refused: Renew(p2, 1) — not the owner');
    expect(md).toMatch(/\| 9 \| ~~Renew\(p2, 1\)~~ ✗ refused: not the owner \| p2 \| (· \| ){14}/);
  });
});
