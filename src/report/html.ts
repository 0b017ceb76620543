/**
 * The human report as one self-contained HTML file: inline CSS, inline SVG sequence diagrams, no
 * script and no external fetch, so it displays the same offline, in a CI artifact viewer, or in
 * headless Chromium.
 */
import { traceMermaid } from '../trace/mermaid.js';
import { stepTable } from '../trace/steps.js';
import { escapeXml as esc, traceSvg } from '../trace/svg.js';
import { traceHeadline } from '../trace/text-table.js';
import { hasObservedColumn, observedText } from './conform-view.js';
import type { Block, Cell, ReportView } from './view.js';

const CSS = `
:root { --ok:#2b8a3e; --bad:#c92a2a; --warn:#e67700; --muted:#868e96; --line:#dee2e6; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; color: #212529; background: #f8f9fa; }
header { padding: 16px 24px; color: #fff; background: var(--bad); }
header.passed { background: var(--ok); } header.not-run { background: var(--warn); }
header h1 { margin: 0; font-size: 20px; }
nav { padding: 8px 24px; background: #fff; border-bottom: 1px solid var(--line); }
nav a { margin-right: 14px; }
main { padding: 8px 24px 40px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 4px 16px 12px; margin: 16px 0; overflow-x: auto; }
h2 { font-size: 17px; } h3 { font-size: 15px; margin-top: 24px; } h4 { font-size: 14px; margin: 12px 0 4px; }
table { border-collapse: collapse; margin: 8px 0; }
th, td { border: 1px solid var(--line); padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f1f3f5; }
table.kv th { width: 14em; }
#mutation-matrix-table td, #conform-actions td, #conform-coverage td { white-space: nowrap; }
td a { color: inherit; }
td.ok { color: var(--ok); font-weight: 600; } td.bad { color: var(--bad); font-weight: 700; background: #fff5f5; }
td.warn { color: var(--warn); } td.muted { color: var(--muted); }
p.ok { color: var(--ok); font-weight: 600; } p.bad { color: var(--bad); font-weight: 600; } p.warn { color: var(--warn); } p.muted { color: var(--muted); }
table.steps td { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; }
table.steps td.changed { background: #fff3bf; font-weight: 700; }
table.steps td.observed { white-space: nowrap; font-family: inherit; }
table.steps tr.broken td { background: #ffe3e3; }
pre { background: #f1f3f5; padding: 8px; overflow-x: auto; font-size: 12px; }
.diagram { overflow-x: auto; margin: 8px 0; }
details summary { cursor: pointer; color: #495057; }
`;

function cellHtml(c: Cell, tag: 'td' | 'th' = 'td'): string {
  const cls = c.tone ? ` class="${c.tone}"` : '';
  const title = c.title ? ` title="${esc(c.title)}"` : '';
  const inner = c.href ? `<a href="${esc(c.href)}">${esc(c.text)}</a>` : esc(c.text);
  return `<${tag}${cls}${title}>${inner}</${tag}>`;
}

function blockHtml(b: Block): string {
  switch (b.kind) {
    case 'p':
      return `<p${b.tone ? ` class="${b.tone}"` : ''}>${esc(b.text)}</p>`;
    case 'heading':
      return `<h4>${esc(b.text)}</h4>`;
    case 'list':
      return `<ul>${b.items.map((i) => `<li>${esc(i)}</li>`).join('')}</ul>`;
    case 'kv':
      return `<table class="kv">${b.rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</table>`;
    case 'table':
      return [
        `<table${b.id ? ` id="${esc(b.id)}"` : ''}>`,
        `<thead><tr>${b.columns.map((c) => `<th>${esc(c)}</th>`).join('')}</tr></thead>`,
        `<tbody>${b.rows.map((r) => `<tr>${r.map((c) => cellHtml(c)).join('')}</tr>`).join('\n')}</tbody>`,
        '</table>',
      ].join('\n');
    case 'code':
      return `<pre>${esc(b.text)}</pre>`;
    case 'trace': {
      const t = stepTable(b.trace);
      // A conform trace says what the real system did at each step (attempt, decision, note).
      const observed = hasObservedColumn(b.trace);
      const head = `<tr><th>#</th><th>action</th><th>pod</th>${t.columns.map((c) => `<th>${esc(c)}</th>`).join('')}<th>broken</th>${observed ? '<th>real system</th>' : ''}</tr>`;
      const rows = t.rows.map(
        (r) =>
          `<tr${r.newlyBroken.length > 0 ? ' class="broken"' : ''} data-step="${r.index}"><td>${r.index}</td><td>${esc(r.action)}</td><td>${esc(r.pod || '-')}</td>${t.columns
            .map((c) => `<td${r.changed.has(c) ? ' class="changed"' : ''}>${esc(r.cells[c] ?? '')}</td>`)
            .join('')}<td>${esc(r.broken.join(', '))}</td>${observed ? `<td class="observed">${esc(observedText(b.trace.steps[r.index]!))}</td>` : ''}</tr>`,
      );
      return [
        `<article class="trace" id="${esc(b.anchor)}">`,
        `<h3>${esc(b.path)}</h3>`,
        `<p>${esc(traceHeadline(b.trace))}</p>`,
        `<div class="diagram">${traceSvg(b.trace, `svg-${b.anchor}`)}</div>`,
        `<table class="steps"><thead>${head}</thead><tbody>${rows.join('\n')}</tbody></table>`,
        `<details><summary>Mermaid source</summary><pre>${esc(traceMermaid(b.trace))}</pre></details>`,
        '</article>',
      ].join('\n');
    }
  }
}

export function renderHtml(view: ReportView): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    // No network: nothing in this page may be fetched, even by accident.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    `<title>${esc(view.title)}</title>`,
    `<style>${CSS}</style>`,
    '</head><body>',
    `<header class="${esc(view.status)}"><h1>${esc(view.title)}</h1></header>`,
    `<nav>${view.sections.map((s) => `<a href="#${esc(s.id)}">${esc(s.title)}</a>`).join('')}</nav>`,
    '<main>',
    ...view.sections.map((s) => `<section id="${esc(s.id)}"><h2>${esc(s.title)}</h2>\n${s.blocks.map(blockHtml).join('\n')}\n</section>`),
    '</main></body></html>',
    '',
  ].join('\n');
}
