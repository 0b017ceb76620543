import { traceHeadline } from '../trace/text-table.js';
import { hasObservedColumn, observedText } from './trace-observed.js';
import { traceMermaid } from '../trace/mermaid.js';
import { refusal, refusedSteps, stepTable } from '../trace/steps.js';
import type { Block, Cell, ReportView } from './view-types.js';
import { traceCommandLabel } from './replay.js';

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
      return [
        ...table(
          ['', ''],
          b.rows.map(([k, v]) => [`**${esc(k)}**`, esc(v)]),
        ),
        '',
      ];
    case 'table':
      return [
        ...table(
          b.columns,
          b.rows.map((r) => r.map(cell)),
        ),
        '',
      ];
    case 'code':
      return [...(b.anchor !== undefined ? [`<a id="${b.anchor}"></a>`, `### ${b.title ?? ''}`, ''] : []), '```', b.text, '```', ''];
    case 'trace': {
      const t = stepTable(b.trace);
      const observed = hasObservedColumn(b.trace);
      const refused = refusedSteps(b.trace);
      const rows = t.rows.map((r) => {
        const step = b.trace.steps[r.index]!;
        // A refused attempt changed nothing: struck through, with the refusal instead of the state.
        const isRefused = refused.has(r.index);
        const state = t.columns.map((c) => (r.changed.has(c) ? `**${esc(r.cells[c] ?? '')}**` : esc(r.cells[c] ?? '')));
        return [
          String(r.index),
          isRefused ? `~~${esc(r.action)}~~ ✗ refused${refusal(step) ? `: ${esc(refusal(step)!)}` : ''}` : esc(r.action),
          r.pod || '-',
          ...(isRefused && r.changed.size === 0 ? t.columns.map(() => '·') : state),
          r.newlyBroken.length > 0 ? `❌ ${r.newlyBroken.join(', ')}` : r.broken.length > 0 ? r.broken.join(', ') : '',
          ...(observed ? [esc(observedText(step))] : []),
        ];
      });
      // Collapsed (GitHub renders <details>): a report can hold dozens of traces; the replay stays visible.
      return [
        `<a id="${b.anchor}"></a>`,
        `### ${b.path}`,
        '',
        `${traceHeadline(b.trace)}${refused.size > 0 ? ` · ${refused.size} refused attempt${refused.size === 1 ? '' : 's'}` : ''}`,
        '',
        `${traceCommandLabel(b.replay) === 'show' ? 'Show (no replay on the real code)' : 'Replay'}: \`${b.replay}\``,
        '',
        `<details><summary>Steps and sequence diagram (${t.rows.length} states)</summary>`,
        '',
        `Changed variables are **bold**${refused.size > 0 ? '; refused attempts are ~~struck through~~ (state unchanged: ·)' : ''}.`,
        '',
        ...table(['#', 'action', 'actor', ...t.columns, 'broken', ...(observed ? ['real system'] : [])], rows),
        '',
        '```mermaid',
        traceMermaid(b.trace, { refusals: true }),
        '```',
        '',
        '</details>',
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
