/**
 * The report view draws any system's trace: a pause trace and an init-limiter
 * trace (each system's shortest counterexample under one of its model mutants, as the seam writes
 * it) are embedded in the Markdown and the HTML report with their own variables as columns (split
 * per replica or stream), their actions and actors, the invariant they break marked at the step
 * that breaks it, and the command that replays them on their real code (each through its tour's real
 * side). A fencing trace beside them keeps its replay; a spec that is none of the systems only shows.
 */
import { describe, expect, it } from 'vitest';
import type { Trace } from '../../src/core/trace-format.js';
import { loadSystemManifest, SYSTEMS } from '../../src/registry/systems.js';
import { renderHtml } from '../../src/report/html.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { replayCommand, traceReplayCommand } from '../../src/report/replay.js';
import { buildView, traceAnchor } from '../../src/report/view.js';
import { shortestSystemCounterexample } from '../../src/seam/explore.js';
import { mutatedSystem } from '../../src/seam/model-patch.js';
import { pathToTrace } from '../../src/seam/trace.js';
import { stepTable } from '../../src/trace/steps.js';
import { fixtureReport } from './fixtures.js';
import { m1Trace, plain } from '../trace/fixtures.js';

async function counterexample(system: string, id: string): Promise<Trace> {
  const entry = loadSystemManifest().mutants.find((m) => m.id === id)!;
  const sys = await mutatedSystem(await SYSTEMS[system]!(), entry);
  return plain(pathToTrace(sys, shortestSystemCounterexample(sys, entry.expectedInvariant)!, { mutant: id, violated: entry.expectedInvariant }));
}

const PAUSE = 'reports/traces/model-P1.json';
const INIT = 'reports/traces/model-I1.json';
const FENCING = 'reports/traces/model-M1.json';

/** The Markdown of one embedded trace: from its anchor to the next one. */
function mdTrace(md: string, path: string): string {
  const start = md.indexOf(`<a id="${traceAnchor(path)}"></a>`);
  expect(start, `${path} is embedded`).toBeGreaterThanOrEqual(0);
  const next = md.indexOf('<a id="trace-', start + 1);
  return md.slice(start, next < 0 ? undefined : next);
}

function htmlTrace(html: string, path: string): string {
  const start = html.indexOf(`<details class="trace" id="${traceAnchor(path)}-details">`);
  expect(start, `${path} is embedded`).toBeGreaterThanOrEqual(0);
  return html.slice(start, html.indexOf('</table>', start));
}

describe("the report view draws every system's trace", async () => {
  const pause = await counterexample('pause', 'P1');
  const init = await counterexample('init-limiter', 'I1');
  const traces = new Map([
    [PAUSE, { trace: pause }],
    [INIT, { trace: init }],
    [FENCING, { trace: plain(m1Trace()) }],
  ]);
  const view = buildView(fixtureReport(), traces);
  const md = renderMarkdown(view);
  const html = renderHtml(view);

  for (const [path, trace, system] of [
    [PAUSE, pause, 'pause'],
    [INIT, init, 'init-limiter'],
  ] as const) {
    it(`${system}: its variables as columns, its actions and actors, the broken invariant at its step (Markdown)`, () => {
      const t = stepTable(trace);
      const part = mdTrace(md, path);
      expect(part).toContain(`| # | action | actor | ${t.columns.join(' | ')} | broken |`);
      // Every step's action with its arguments and its actor.
      for (const r of t.rows) expect(part).toContain(`| ${r.index} | ${r.action.replace(/\|/g, '\\|')} | ${r.pod || '-'} |`);
      const last = t.rows[t.rows.length - 1]!;
      expect(last.newlyBroken).toContain(trace.violated);
      expect(part).toContain(`❌ ${last.newlyBroken.join(', ')} |`);
      expect(part).toContain(`system=${system}`);
      expect(part).toContain('```mermaid');
    });

    // Pause and the init limiter replay on their real code (through their tours' real sides).
    it(`${system}: the HTML table, the sequence diagram, and its replay command`, () => {
      const part = htmlTrace(html, path);
      expect(part).toContain(`<code class="replay">replay: fencecheck trace replay ${path}</code>`);
      expect(part).toContain('<th>#</th><th>action</th><th>actor</th>');
      for (const c of stepTable(trace).columns) expect(part).toContain(`<th>${c.replace(/>/g, '&gt;')}</th>`);
      expect(part).toMatch(/<svg [^>]*class="seq"/);
      expect(mdTrace(md, path)).not.toContain('Show (no replay on the real code)');
    });
  }

  it('splits per-replica and per-stream variables into columns of their own', () => {
    expect(stepTable(pause).columns).toEqual(expect.arrayContaining(['chan[r1]', 'chan[r2]', 'snap[r1]', 'snap[r2]']));
    expect(stepTable(init).columns).toEqual(expect.arrayContaining(['cl[s1]', 'cl[s2]', 'cl[p1]', 'cl[p2]']));
  });

  it('a fencing trace beside them keeps its replay on the real code', () => {
    expect(htmlTrace(html, FENCING)).toContain(`<code class="replay">replay: fencecheck trace replay ${FENCING}</code>`);
    expect(traceReplayCommand(FENCING, 'fencing')).toBe(`fencecheck trace replay ${FENCING}`);
    expect(traceReplayCommand(PAUSE, 'pause')).toBe(`fencecheck trace replay ${PAUSE}`);
    expect(traceReplayCommand(INIT, 'init-limiter')).toBe(`fencecheck trace replay ${INIT}`);
    // A trace of a spec that is none of the systems has no replay: show.
    expect(traceReplayCommand(INIT, 'tla')).toBe(`fencecheck trace show ${INIT}`);
  });

  it('the matrix and JUnit name the same command for a mutant cell with a trace: replay for every system', () => {
    expect(replayCommand('I1', 'model', { verdict: 'killed', tracePath: INIT }, 'init-limiter')).toBe(`fencecheck trace replay ${INIT}`);
    expect(replayCommand('P1', 'model', { verdict: 'killed', tracePath: PAUSE }, 'pause')).toBe(`fencecheck trace replay ${PAUSE}`);
    expect(replayCommand('M1', 'model', { verdict: 'killed', tracePath: FENCING }, 'fencing')).toBe(`fencecheck trace replay ${FENCING}`);
  });
});
