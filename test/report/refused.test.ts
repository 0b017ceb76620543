/**
 * Refused attempts in a property trace (source props, `observed.status: "refused"`): the system
 * turned the attempt down and nothing changed, so the reports draw it as refused — never as a step
 * that moved the system.
 */
import { describe, expect, it } from 'vitest';
import type { Step, Trace } from '../../src/core/trace-format.js';
import { renderHtml } from '../../src/report/html.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { traceMermaid } from '../../src/trace/mermaid.js';
import { refusal, refusedSteps } from '../../src/trace/steps.js';
import { traceSvg } from '../../src/trace/svg.js';

// What the reports draw (src/report/markdown.ts, trace-html.ts): the diagram with refusals marked.
const reportSvg = (t: Trace, id: string) => traceSvg(t, id, { refusals: true });
const reportMermaid = (t: Trace) => traceMermaid(t, { refusals: true });
import { buildView, traceAnchor } from '../../src/report/view.js';
import { m1Trace } from '../trace/fixtures.js';
import { fixtureReport } from './fixtures.js';

const PATH = 'reports/traces/props-M1-42-1.json';

/** The M1 counterexample as a property run saves it, with p3's acquire refused (p2 holds the old lease) before p1's AcquireB. */
function propsTrace(): Trace {
  const t = m1Trace('props');
  const steps = t.steps.map((s, i): Step => (i === 0 ? s : { ...s, observed: { intent: `${s.action.toLowerCase()}(${String(s.params.p ?? '')})`, status: 'applied', note: 'ok' } }));
  const held = steps[7]!;
  const refused: Step = { action: 'AcquireA', params: { p: 'p3' }, state: held.state, broken: held.broken!, observed: { intent: 'acquire(p3)', status: 'refused' }, note: 'held by p2/1' };
  return { ...t, seed: 42, path: '1:2', steps: [...steps.slice(0, 8), refused, ...steps.slice(8)] };
}

describe('refused attempts', () => {
  const trace = propsTrace();

  it('are recognised from the props status and the tour decision, nothing else', () => {
    expect([...refusedSteps(trace)]).toEqual([8]);
    expect(refusal(trace.steps[8]!)).toBe('held by p2/1');
    expect(refusal({ ...trace.steps[8]!, note: undefined, observed: { status: 'refused', note: 'an older note' } } as Step)).toBe('an older note');
    expect(refusal({ ...trace.steps[8]!, note: undefined, observed: { attempt: 'renew', decision: 'refused' } } as Step)).toBe('');
    expect(refusal({ ...trace.steps[8]!, observed: { attempt: 'renew', decision: 'renewed' } })).toBeNull();
  });

  it('SVG: a dashed message without an arrowhead, labelled refused with its reason', () => {
    const svg = reportSvg(trace, 'x');
    const group = /<g class="message refused" data-step="8">([\s\S]*?)<\/g>/.exec(svg)?.[1];
    expect(group).toBeDefined();
    expect(group).toContain('>8. ✗ refused: AcquireA(p3) — held by p2/1</text>');
    expect(group).not.toContain('marker-end');
    // The step after it is an ordinary one.
    expect(svg).toContain('<g class="message" data-step="9">');
    expect(svg.match(/class="message refused"/g)).toHaveLength(1);
  });

  it('Mermaid: a dotted arrow ending in a cross', () => {
    const m = reportMermaid(trace);
    expect(m).toMatch(/\n  a_p3--xstate: 8\. ✗ refused: AcquireA\(p3\) — held by p2\/1\n/);
    expect(m).toContain('a_p1->>state: 9. AcquireB(p1): newLease.owner := p1, newLease.gen := 2, newGen := 2, lastIssued := 2');
  });

  it('HTML and Markdown step tables: struck through, the refusal instead of a repeated state', () => {
    const r = { ...fixtureReport(), traces: [PATH] };
    const view = buildView(r, new Map([[PATH, { trace }]]));
    const html = renderHtml(view);
    expect(html).toMatch(
      /<tr class="refused" data-step="8"><td>8<\/td><td class="action">AcquireA\(p3\)<\/td><td>p3<\/td><td class="refusal" colspan="14">refused: held by p2\/1 — state unchanged<\/td>/,
    );
    expect(html).toContain('· 1 refused attempt<code class="replay">');
    expect(html).toContain(`id="${traceAnchor(PATH)}"`);
    const md = renderMarkdown(view);
    expect(md).toMatch(/\| 8 \| ~~AcquireA\(p3\)~~ ✗ refused: held by p2\/1 \| p3 \| (· \| ){14}/);
    expect(md).toContain('refused attempts are ~~struck through~~');
  });
});
