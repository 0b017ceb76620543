/**
 * Refused attempts in a trace. A property run (source `props`, `observed.status: "refused"`) and the
 * conformance tour (`observed.decision: "refused"`) record attempts the system turned down: the
 * state did not change, so the reports draw them as refused — struck through, a dashed arrow ending
 * in a cross — never as steps that moved the system. The sequence diagram itself is src/trace's;
 * here its messages for those steps are relabelled and marked.
 */
import type { FencingTrace, TraceStep } from '../trace/format.js';
import { mermaidFromDiagram } from '../trace/mermaid.js';
import { sequenceDiagram, type SequenceDiagram } from '../trace/sequence.js';
import { actionLabel } from '../trace/steps.js';
import { svgFromDiagram } from '../trace/svg.js';

/** The refusal's note ('' when none was recorded) when the step is a refused attempt, else null. */
export function refusal(step: TraceStep): string | null {
  const o = step.observed;
  if (!o || (o.status !== 'refused' && o.decision !== 'refused')) return null;
  return typeof o.note === 'string' ? o.note : '';
}

/** Indexes of the refused steps. */
export function refusedSteps(trace: FencingTrace): ReadonlySet<number> {
  return new Set(trace.steps.flatMap((s, i) => (refusal(s) !== null ? [i] : [])));
}

/** `✗ refused: AcquireB(p1) — held by p2/1`. */
export function refusedLabel(step: TraceStep): string {
  const note = refusal(step);
  return `✗ refused: ${actionLabel(step)}${note ? ` — ${note}` : ''}`;
}

function diagram(trace: FencingTrace, refused: ReadonlySet<number>): SequenceDiagram {
  const d = sequenceDiagram(trace);
  return { ...d, items: d.items.map((item) => (item.kind === 'message' && refused.has(item.step) ? { ...item, label: refusedLabel(trace.steps[item.step]!) } : item)) };
}

/** The trace as inline SVG, refused attempts in `<g class="message refused">` (the report's CSS dashes them). */
export function reportSvg(trace: FencingTrace, id: string): string {
  const refused = refusedSteps(trace);
  let svg = svgFromDiagram(diagram(trace, refused), id);
  for (const i of refused) svg = svg.replace(`<g class="message" data-step="${i}">`, `<g class="message refused" data-step="${i}">`);
  // The CSS cannot reach a marker's shape through `marker-end`, so the arrowhead is dropped here.
  return svg.replace(/(<g class="message refused"[^>]*>\n<(?:line|path)[^>]*?) marker-end="[^"]*"/g, '$1');
}

/** The trace as Mermaid, refused attempts as dotted arrows ending in a cross (`--x`). */
export function reportMermaid(trace: FencingTrace): string {
  const refused = refusedSteps(trace);
  return mermaidFromDiagram(diagram(trace, refused))
    .split('\n')
    .map((line) => {
      const m = /^(\s+)(\S+)->>(\S+): (\d+)\. /.exec(line);
      return m && refused.has(Number(m[4])) ? line.replace(`${m[2]}->>${m[3]}:`, `${m[2]}--x${m[3]}:`) : line;
    })
    .join('\n');
}
