/**
 * Draws a SequenceDiagram as standalone inline SVG. The HTML report embeds this, so a trace diagram
 * displays offline with no Mermaid renderer and no script.
 */
import type { TraceLike } from '../core/trace-format.js';
import { sequenceDiagram, type DiagramOptions, type SequenceDiagram } from './sequence.js';

const COL = 150;
const MARGIN = 24;
const HEAD = 34;
const ROW = 34;
const SELF_EXTRA = 220;

export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Monospace 12px is about 7.3px a character. */
const CHAR = 7.3;

export function svgFromDiagram(d: SequenceDiagram, id = 'seq'): string {
  const x = new Map(d.participants.map((p, i) => [p.id, MARGIN + COL / 2 + i * COL]));
  // A message's label starts right of the lifeline it ends at (it may be wider than the span between them).
  const longest = Math.max(0, ...d.items.map((i) => (i.kind === 'message' ? `${i.step}. ${i.label}`.length : 0)));
  const width = MARGIN * 2 + d.participants.length * COL + Math.max(SELF_EXTRA, Math.ceil(longest * CHAR) + 16 - COL / 2);
  const top = MARGIN + HEAD + 16;
  const height = top + d.items.length * ROW + MARGIN + HEAD;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="seq" id="${escapeXml(id)}" role="img" aria-label="${escapeXml(d.title)}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="ui-monospace, Menlo, Consolas, monospace" font-size="12">`,
    `<title>${escapeXml(d.title)}</title>`,
    `<defs><marker id="${escapeXml(id)}-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#333"/></marker></defs>`,
  );
  const heads = (y: number) => {
    for (const p of d.participants) {
      const cx = x.get(p.id)!;
      out.push(`<rect class="actor" x="${cx - COL / 2 + 8}" y="${y}" width="${COL - 16}" height="${HEAD}" rx="4" fill="#eef2ff" stroke="#4f5bd5"/>`);
      out.push(`<text x="${cx}" y="${y + HEAD / 2 + 4}" text-anchor="middle">${escapeXml(p.label)}</text>`);
    }
  };
  heads(MARGIN);
  for (const p of d.participants) {
    const cx = x.get(p.id)!;
    out.push(`<line x1="${cx}" y1="${MARGIN + HEAD}" x2="${cx}" y2="${height - MARGIN - HEAD}" stroke="#999" stroke-dasharray="4 4"/>`);
  }
  d.items.forEach((item, i) => {
    const y = top + i * ROW + ROW / 2;
    if (item.kind === 'note') {
      const xs = item.over.map((id) => x.get(id) ?? MARGIN);
      // Monospace 12px is about 7.3px a character: widen the box to fit its text.
      const half = Math.max((Math.max(...xs) - Math.min(...xs)) / 2 + COL / 2 - 12, (item.text.length * CHAR) / 2 + 10);
      const mid = (Math.min(...xs) + Math.max(...xs)) / 2;
      const x1 = Math.max(4, Math.min(mid - half, width - 4 - 2 * half));
      const x2 = x1 + 2 * half;
      const fill = item.alarm ? '#ffe3e3' : '#fff9db';
      const stroke = item.alarm ? '#c92a2a' : '#c9a400';
      out.push(`<g class="note${item.alarm ? ' alarm' : ''}" data-step="${item.step}">`);
      out.push(`<rect x="${x1}" y="${y - 11}" width="${x2 - x1}" height="22" fill="${fill}" stroke="${stroke}"/>`);
      out.push(`<text x="${(x1 + x2) / 2}" y="${y + 4}" text-anchor="middle"${item.alarm ? ' fill="#c92a2a" font-weight="bold"' : ''}>${escapeXml(item.text)}</text></g>`);
      return;
    }
    const x1 = x.get(item.from) ?? MARGIN;
    const x2 = x.get(item.to) ?? MARGIN;
    const label = `${item.step}. ${item.label}`;
    // A refused attempt: a dashed line without an arrowhead (it reached nothing).
    const dash = item.refused ? ' stroke-dasharray="5 4"' : '';
    const head = item.refused ? '' : ` marker-end="url(#${escapeXml(id)}-arrow)"`;
    out.push(`<g class="message${item.refused ? ' refused' : ''}" data-step="${item.step}">`);
    if (x1 === x2) {
      out.push(`<path d="M${x1},${y - 8} h28 v16 h-28"${dash} fill="none" stroke="#333"${head}/>`);
      out.push(`<text x="${x1 + 34}" y="${y + 4}">${escapeXml(label)}</text>`);
    } else {
      out.push(`<line x1="${x1}" y1="${y + 6}" x2="${x2}" y2="${y + 6}"${dash} stroke="#333"${head}/>`);
      out.push(`<text x="${Math.max(x1, x2) + 8}" y="${y + 10}">${escapeXml(label)}</text>`);
    }
    out.push('</g>');
  });
  heads(height - MARGIN - HEAD);
  out.push('</svg>');
  return out.join('\n');
}

export function traceSvg(trace: TraceLike, id?: string, opts: DiagramOptions = {}): string {
  return svgFromDiagram(sequenceDiagram(trace, opts), id);
}
