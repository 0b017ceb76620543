import type { TraceLike } from '../core/trace-format.js';
import { sequenceDiagram, type DiagramOptions, type SequenceDiagram } from './sequence.js';

/** Mermaid forbids `;` (statement end) and `#` (entity escapes) in message text. */
function text(s: string): string {
  return s
    .replace(/;/g, ',')
    .replace(/#/g, 'no.')
    .replace(/[\r\n]+/g, ' ');
}

export function mermaidFromDiagram(d: SequenceDiagram): string {
  const lines = ['sequenceDiagram', `  title ${text(d.title)}`];
  for (const p of d.participants) lines.push(`  participant ${p.id} as ${text(p.label)}`);
  for (const item of d.items) {
    // A refused attempt: a dotted arrow ending in a cross.
    if (item.kind === 'message') lines.push(`  ${item.from}${item.refused ? '--x' : '->>'}${item.to}: ${item.step}. ${text(item.label)}`);
    else lines.push(`  Note over ${item.over[0] === item.over[1] ? item.over[0] : `${item.over[0]},${item.over[1]}`}: ${text(item.text)}`);
  }
  return lines.join('\n');
}

/** The trace (of any system) as a Mermaid sequence diagram (`fencecheck trace show --mermaid`, the Markdown report). */
export function traceMermaid(trace: TraceLike, opts: DiagramOptions = {}): string {
  return mermaidFromDiagram(sequenceDiagram(trace, opts));
}
