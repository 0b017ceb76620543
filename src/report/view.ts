/**
 * The human report as a neutral document (view-types.ts), built once from the verify document and
 * rendered twice: Markdown (markdown.ts) and self-contained HTML (html.ts). The verdict, the
 * stages, the TLC figures per model, the mutation matrix, then every section the stages' reports
 * carry (stage-sections.ts), then the counterexample traces not drawn in a section.
 */
import { FOREIGN_SYSTEM, type AnyTrace } from '../core/trace-format.js';
import { formatCounts, formatDuration } from '../core/format.js';
import { formatTlaStepTable, tlaHeadline } from '../trace/tla-table.js';
import { traceReplayCommand } from './replay.js';
import { matrixSection } from './matrix-view.js';
import { stageSections, tracesInSections } from './stage-sections.js';
import { tlcSection } from './tlc-view.js';
import type { VerifyReport } from './verify-doc.js';
import { MAX_EMBEDDED_TRACES, stageStatusText, statusTone, traceAnchor, type Block, type Cell, type ReportView, type Section, type TraceSet } from './view-types.js';

export { MAX_EMBEDDED_TRACES, traceAnchor, type Block, type Cell, type ReportView, type Section, type TraceSet, type Tone } from './view-types.js';

/** `link` turns a project-root-relative path into a link from where the report is written. */
export function buildView(r: VerifyReport, traces: TraceSet, link: (fromRoot: string) => string = (p) => p): ReportView {
  // Traces a stage's section draws are drawn there (always, whatever the limit); the others in the traces section.
  const inSections = new Set([...tracesInSections(r)].filter((p) => traces.has(p) && 'trace' in traces.get(p)!));
  const embedded = [...traces.entries()].filter(([p, t]) => 'trace' in t && !inSections.has(p)).slice(0, MAX_EMBEDDED_TRACES - inSections.size);
  const embeddedPaths = new Set([...embedded.map(([p]) => p), ...inSections]);
  const sections: Section[] = [
    verdictSection(r),
    stagesSection(r),
    tlcSection(r),
    matrixSection(r, embeddedPaths, link),
    ...stageSections(r, { traces, embedded: embeddedPaths, link }),
    tracesSection(traces, embedded, inSections),
  ].filter((s): s is Section => s !== null);
  return { title: `fencecheck verify — ${r.verdict.status.toUpperCase()}`, status: r.verdict.status, sections };
}

function verdictSection(r: VerifyReport): Section {
  const blocks: Block[] = [{ kind: 'p', text: `Verdict: ${r.verdict.status.toUpperCase()} (exit ${r.verdict.exitCode})`, tone: r.verdict.status === 'passed' ? 'ok' : 'bad' }];
  if (r.verdict.reasons.length > 0) blocks.push({ kind: 'list', items: r.verdict.reasons });
  if (r.verdict.waived.length > 0) blocks.push({ kind: 'p', text: 'Waived with --allow-not-run:', tone: 'warn' }, { kind: 'list', items: r.verdict.waived });
  const o = r.options;
  blocks.push({
    kind: 'kv',
    rows: [
      ['started', r.startedAt],
      ['wall time', formatDuration(r.durationMs)],
      ['commit', r.git ? `${r.git.commit}${r.git.dirty ? ' (uncommitted changes)' : ''}` : 'unknown'],
      ['host', `node ${r.host.node}, ${r.host.platform}/${r.host.arch}, ${r.host.cpus} CPUs`],
      ['stages', o.stages.join(', ') || '(none)'],
      ['not selected', o.notSelected.join(', ') || '(none)'],
      ['allowed not run', o.allowNotRun.join(', ') || '(none)'],
      ['runs / seed / topology', `${o.runs ?? 'default'} / ${o.seed ?? 'random'} / ${o.topology ?? 'default'}`],
      ['constants (explore, tour)', o.constants && o.constants.length > 0 ? o.constants.join(', ') : "the specs' base configs"],
    ],
  });
  return { id: 'verdict', title: 'Verdict', blocks };
}

function stagesSection(r: VerifyReport): Section {
  return {
    id: 'stages',
    title: 'Stages',
    blocks: [
      {
        kind: 'table',
        id: 'stage-table',
        columns: ['stage', 'status', 'time', 'counts', 'summary / reason', 'log'],
        rows: r.stages.map((o) => [
          { text: o.stage },
          { text: stageStatusText(o), tone: statusTone(o.status) },
          { text: formatDuration(o.durationMs) },
          countsCell(formatCounts(o.counts)),
          { text: o.status === 'passed' ? o.summary : (o.reason ?? o.summary) },
          o.logPath ? { text: o.logPath, href: o.logPath } : { text: '-' },
        ]),
      },
    ],
  };
}

/** Long count lists (per-row figures) are cut in the table; the full list is the cell's title. */
function countsCell(counts: string): Cell {
  if (counts === '') return { text: '-' };
  return counts.length > 120 ? { text: `${counts.slice(0, 120)}…`, title: counts } : { text: counts };
}

function tracesSection(traces: TraceSet, embedded: readonly [string, { trace: AnyTrace } | { error: string }][], elsewhere: ReadonlySet<string>): Section | null {
  if ([...traces.keys()].every((p) => elsewhere.has(p))) return null;
  const blocks: Block[] = [];
  const unreadable = [...traces.entries()].filter(([, t]) => 'error' in t).map(([p, t]) => `${p}: ${'error' in t ? t.error : ''}`);
  const readable = [...traces.entries()].filter(([p, t]) => 'trace' in t && !elsewhere.has(p)).length;
  if (readable > embedded.length)
    blocks.push({ kind: 'p', text: `${readable - embedded.length} more traces are not embedded (limit ${MAX_EMBEDDED_TRACES}); verify.json lists every one (traces).`, tone: 'muted' });
  if (unreadable.length > 0) blocks.push({ kind: 'p', text: 'Traces that could not be read:', tone: 'warn' }, { kind: 'list', items: unreadable });
  for (const [path, t] of embedded) {
    if (!('trace' in t)) continue;
    // Another spec's TLC counterexample: its step table (it replays through TLC, not on the real system).
    if (t.trace.system === FOREIGN_SYSTEM)
      blocks.push({
        kind: 'code',
        anchor: traceAnchor(path),
        title: `${path} · ${tlaHeadline(t.trace)}`,
        text: `${formatTlaStepTable(t.trace, { color: false })}\n\nshow it: fencecheck trace show ${path}`,
      });
    else blocks.push({ kind: 'trace', anchor: traceAnchor(path), path, trace: t.trace, replay: traceReplayCommand(path, t.trace.system) });
  }
  return { id: 'traces', title: 'Counterexample traces', blocks };
}
