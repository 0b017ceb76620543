/**
 * One counterexample trace in the HTML report: collapsed in a `<details>` (a report can hold dozens),
 * its summary naming the trace and the one command that replays it, so both stay visible while it
 * is closed. The body (id = the trace's anchor, which the matrix cells link to: following the link
 * opens the details) holds the SVG sequence diagram, the step table and the Mermaid source.
 * Refused attempts are drawn as refused (src/trace: refusal() and the diagram's `refusals` option), not as steps.
 */
import { traceHeadline } from '../trace/text-table.js';
import { hasObservedColumn, observedText } from './trace-observed.js';
import { traceMermaid } from '../trace/mermaid.js';
import { refusal, refusedSteps, stepTable } from '../trace/steps.js';
import { escapeXml as esc, traceSvg } from '../trace/svg.js';
import type { Block } from './view-types.js';
import { traceCommandLabel } from './replay.js';

export const TRACE_CSS = `
details.trace { background: #fff; border: 1px solid var(--line); border-radius: 6px; margin: 8px 0; }
details.trace > summary { padding: 6px 10px; }
details.trace > summary code.replay { display: block; margin: 2px 0 0 16px; color: #212529; white-space: pre-wrap; }
details.trace .trace-body { padding: 0 12px 8px; overflow-x: auto; }
table.steps tr.refused td { color: var(--muted); }
table.steps tr.refused td.action { text-decoration: line-through; }
table.steps td.refusal { color: var(--muted); font-style: italic; }
svg.seq g.message.refused line, svg.seq g.message.refused path { stroke: #adb5bd; stroke-dasharray: 4 3; }
svg.seq g.message.refused text { fill: #868e96; font-style: italic; }
`;

export function traceHtml(b: Extract<Block, { kind: 'trace' }>): string {
  const t = stepTable(b.trace);
  const refused = refusedSteps(b.trace);
  // A conform trace says what the real system did at each step (attempt, decision, note).
  const observed = hasObservedColumn(b.trace);
  const head = `<tr><th>#</th><th>action</th><th>actor</th>${t.columns.map((c) => `<th>${esc(c)}</th>`).join('')}<th>broken</th>${observed ? '<th>real system</th>' : ''}</tr>`;
  const rows = t.rows.map((r) => {
    const step = b.trace.steps[r.index]!;
    const isRefused = refused.has(r.index);
    const cls = [r.newlyBroken.length > 0 ? 'broken' : '', isRefused ? 'refused' : ''].filter(Boolean).join(' ');
    const note = refusal(step);
    const action = isRefused ? `<td class="action">${esc(r.action)}</td>` : `<td>${esc(r.action)}</td>`;
    const cells = t.columns.map((c) => `<td${r.changed.has(c) ? ' class="changed"' : ''}>${esc(r.cells[c] ?? '')}</td>`).join('');
    // A refused attempt changes nothing: its state cells would only repeat the row above.
    const body = isRefused && r.changed.size === 0 ? `<td class="refusal" colspan="${t.columns.length}">refused${note ? `: ${esc(note)}` : ''} — state unchanged</td>` : cells;
    return `<tr${cls ? ` class="${cls}"` : ''} data-step="${r.index}"><td>${r.index}</td>${action}<td>${esc(r.pod || '-')}</td>${body}<td>${esc(r.broken.join(', '))}</td>${observed ? `<td class="observed">${esc(observedText(step))}</td>` : ''}</tr>`;
  });
  const refusedNote = refused.size > 0 ? ` · ${refused.size} refused attempt${refused.size === 1 ? '' : 's'}` : '';
  return [
    `<details class="trace" id="${esc(b.anchor)}-details">`,
    `<summary><strong>${esc(b.path)}</strong> · ${esc(traceHeadline(b.trace))}${refusedNote}<code class="replay">${traceCommandLabel(b.replay)}: ${esc(b.replay)}</code></summary>`,
    `<div class="trace-body" id="${esc(b.anchor)}">`,
    `<h3>${esc(b.path)}</h3>`,
    `<div class="diagram">${traceSvg(b.trace, `svg-${b.anchor}`, { refusals: true })}</div>`,
    `<table class="steps"><thead>${head}</thead><tbody>${rows.join('\n')}</tbody></table>`,
    `<details><summary>Mermaid source</summary><pre>${esc(traceMermaid(b.trace, { refusals: true }))}</pre></details>`,
    '</div>',
    '</details>',
  ].join('\n');
}
