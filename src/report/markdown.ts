import { traceMermaid } from '../trace/mermaid.js';
import { stepTable } from '../trace/steps.js';
import { traceHeadline } from '../trace/text-table.js';
import { hasObservedColumn, observedText } from './conform-view.js';
import type { Block, Cell, ReportView } from './view.js';

const TONE_MARK: Record<string, string> = { ok: '✅ ', bad: '❌ ', warn: '⚠️ ', muted: '' };

function esc(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function cell(c: Cell): string {
  const text = `${c.tone ? TONE_MARK[c.tone] : ''}${esc(c.text)}`;
  return c.href ? `[${text}](${c.href})` : text;
}

function table(columns: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return [`| ${columns.map(esc).join(' | ')} |`, `|${columns.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
}

function block(b: Block): string[] {
  switch (b.kind) {
    case 'p':
      return [`${b.tone ? TONE_MARK[b.tone] : ''}${b.text}`, ''];
    case 'heading':
      return [`#### ${b.text}`, ''];
    case 'list':
      return [...b.items.map((i) => `- ${i}`), ''];
    case 'kv':
      return [...table(['', ''], b.rows.map(([k, v]) => [`**${esc(k)}**`, esc(v)])), ''];
    case 'table':
      return [...table(b.columns, b.rows.map((r) => r.map(cell))), ''];
    case 'code':
      return ['```', b.text, '```', ''];
    case 'trace': {
      const t = stepTable(b.trace);
      const observed = hasObservedColumn(b.trace);
      const rows = t.rows.map((r) => [
        String(r.index),
        esc(r.action),
        r.pod || '-',
        ...t.columns.map((c) => (r.changed.has(c) ? `**${esc(r.cells[c] ?? '')}**` : esc(r.cells[c] ?? ''))),
        r.newlyBroken.length > 0 ? `❌ ${r.newlyBroken.join(', ')}` : r.broken.length > 0 ? r.broken.join(', ') : '',
        ...(observed ? [esc(observedText(b.trace.steps[r.index]!))] : []),
      ]);
      return [
        `<a id="${b.anchor}"></a>`,
        `### ${b.path}`,
        '',
        traceHeadline(b.trace),
        '',
        'Changed variables are **bold**.',
        '',
        ...table(['#', 'action', 'pod', ...t.columns, 'broken', ...(observed ? ['real system'] : [])], rows),
        '',
        '```mermaid',
        traceMermaid(b.trace),
        '```',
        '',
      ];
    }
  }
}

/** The human report as Markdown (GitHub renders the ```mermaid blocks). */
export function renderMarkdown(view: ReportView): string {
  const lines = [`# ${view.title}`, ''];
  lines.push(...view.sections.map((s) => `- [${s.title}](#${s.id})`), '');
  for (const s of view.sections) {
    lines.push(`<a id="${s.id}"></a>`, `## ${s.title}`, '');
    for (const b of s.blocks) lines.push(...block(b));
  }
  return lines.join('\n');
}
