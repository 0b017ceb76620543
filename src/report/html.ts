/**
 * The human report as one self-contained HTML file: inline CSS, inline SVG sequence diagrams, no
 * script and no external fetch, so it displays the same offline, in a CI artifact viewer, or in
 * headless Chromium.
 */
import { escapeXml as esc } from '../trace/svg.js';
import { TRACE_CSS, traceHtml } from './trace-html.js';
import type { Block, Cell, ReportView } from './view-types.js';

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
table.nowrap td { white-space: nowrap; }
div.scroll { overflow-x: auto; max-width: 100%; }
/* The matrix fits the screen by wrapping its cells (a verdict above its invariant; the guard a mutant
   removes inside its name when it must); narrower than its words, it scrolls inside its own box with
   the mutant column kept in view. */
#mutation-matrix-table td { white-space: normal; min-width: 5em; }
#mutation-matrix-table td:nth-child(2) { overflow-wrap: anywhere; }
#mutation-matrix-table th:first-child, #mutation-matrix-table td:first-child { position: sticky; left: 0; z-index: 1; background: #fff; min-width: 0; }
#mutation-matrix-table th:first-child { background: #f1f3f5; }
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
        b.scroll ? `<div class="scroll"${b.id ? ` id="${esc(b.id)}-scroll"` : ''}>` : '',
        `<table${b.id ? ` id="${esc(b.id)}"` : ''}${b.nowrap ? ' class="nowrap"' : ''}>`,
        `<thead><tr>${b.columns.map((c) => `<th>${esc(c)}</th>`).join('')}</tr></thead>`,
        `<tbody>${b.rows.map((r) => `<tr>${r.map((c) => cellHtml(c)).join('')}</tr>`).join('\n')}</tbody>`,
        '</table>',
        b.scroll ? '</div>' : '',
      ]
        .filter(Boolean)
        .join('\n');
    case 'code':
      return `${b.anchor !== undefined ? `<h3 id="${esc(b.anchor)}">${esc(b.title ?? '')}</h3>\n` : ''}<pre>${esc(b.text)}</pre>`;
    case 'trace':
      return traceHtml(b);
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
    `<style>${CSS}${TRACE_CSS}</style>`,
    '</head><body>',
    `<header class="${esc(view.status)}"><h1>${esc(view.title)}</h1></header>`,
    `<nav>${view.sections.map((s) => `<a href="#${esc(s.id)}">${esc(s.title)}</a>`).join('')}</nav>`,
    '<main>',
    ...view.sections.map((s) => `<section id="${esc(s.id)}"><h2>${esc(s.title)}</h2>\n${s.blocks.map(blockHtml).join('\n')}\n</section>`),
    '</main></body></html>',
    '',
  ].join('\n');
}
