/**
 * The sections a stage's report carries (`details.sections`, src/core/report-details.ts), as
 * sections of the human report: the stage's verdict after the first section's intro, a coverage
 * block as a table with its percentages, table cells linked to their traces, and a trace block
 * drawn in place — or why it could not be. The stage says what its sections hold; nothing here
 * knows which stage or system made them.
 */
import { coveragePercent } from '../core/percent.js';
import { readReportDetails, type ReportBlock, type ReportSection } from '../core/report-details.js';
import { formatTlaStepTable, tlaHeadline } from '../trace/tla-table.js';
import { traceReplayCommand } from './replay.js';
import type { StageOutcome, VerifyReport } from './verify-doc.js';
import { stageVerdictBlock, traceAnchor, type Block, type Section, type TraceSet } from './view-types.js';

/** Section ids the report itself uses. */
const RESERVED_IDS = ['verdict', 'stages', 'tlc', 'mutation-matrix', 'traces'];

/** A stage's report counts when the stage ended as it said: an `error` outcome's report is not trusted. */
export function trustedDetails(o: StageOutcome): ReturnType<typeof readReportDetails> | null {
  if (!o.report || o.status === 'error') return null;
  return readReportDetails(o.report.details);
}

/** The traces the stages' sections draw in place (each is drawn there, not in the traces section). */
export function tracesInSections(r: VerifyReport): Set<string> {
  const paths = new Set<string>();
  for (const o of r.stages) for (const s of trustedDetails(o)?.sections ?? []) for (const b of s.blocks) if (b.kind === 'trace') paths.add(b.path);
  return paths;
}

export interface SectionContext {
  readonly traces: TraceSet;
  /** Traces embedded somewhere in the report: a link to one goes to its anchor. */
  readonly embedded: ReadonlySet<string>;
  /** A project-root-relative path as a link from where the report is written. */
  readonly link: (fromRoot: string) => string;
}

export function stageSections(r: VerifyReport, ctx: SectionContext): Section[] {
  const used = new Set(RESERVED_IDS);
  const unique = (id: string, stage: string): string => {
    let candidate = used.has(id) ? `${stage.replace(/[^a-z0-9-]/gi, '-')}-${id}` : id;
    for (let n = 2; used.has(candidate); n++) candidate = `${id}-${n}`;
    used.add(candidate);
    return candidate;
  };
  const out: Section[] = [];
  for (const o of r.stages) {
    const sections = trustedDetails(o)?.sections ?? [];
    sections.forEach((s, i) => out.push(section(s, o, i === 0, unique(s.id, o.stage), ctx)));
  }
  return out;
}

function section(s: ReportSection, o: StageOutcome, first: boolean, id: string, ctx: SectionContext): Section {
  const blocks: Block[] = [];
  if (s.intro !== undefined) blocks.push({ kind: 'p', text: s.intro });
  if (first) blocks.push(stageVerdictBlock(o));
  for (const b of s.blocks) blocks.push(viewBlock(b, ctx));
  return { id, title: s.title, blocks };
}

function viewBlock(b: ReportBlock, ctx: SectionContext): Block {
  switch (b.kind) {
    case 'p':
    case 'heading':
    case 'list':
    case 'kv':
    case 'code':
      return b;
    case 'table':
      return {
        kind: 'table',
        columns: b.columns,
        ...(b.id !== undefined ? { id: b.id } : {}),
        ...(b.nowrap ? { nowrap: true } : {}),
        rows: b.rows.map((row) => row.map(({ trace, ...cell }) => (trace === undefined ? cell : { ...cell, href: ctx.embedded.has(trace) ? `#${traceAnchor(trace)}` : ctx.link(trace) }))),
      };
    case 'coverage':
      return {
        kind: 'table',
        columns: [b.label, 'executed', 'model total', '%'],
        ...(b.id !== undefined ? { id: b.id } : {}),
        nowrap: true,
        rows: b.rows.map((f) => [
          { text: f.name },
          { text: String(f.executed) },
          { text: String(f.model) },
          { text: `${coveragePercent(f.executed, f.model).toFixed(1)} %`, tone: f.executed >= f.model ? 'ok' : 'bad' },
        ]),
      };
    case 'trace': {
      const loaded = ctx.traces.get(b.path);
      if (!loaded || 'error' in loaded) return { kind: 'p', text: `The trace could not be read: ${loaded && 'error' in loaded ? loaded.error : 'not found'}`, tone: 'warn' };
      const anchor = traceAnchor(b.path);
      // Another spec's trace: its step table (it replays through TLC, not on the real system).
      if (loaded.trace.system === 'tla')
        return { kind: 'code', anchor, title: `${b.path} · ${tlaHeadline(loaded.trace)}`, text: `${formatTlaStepTable(loaded.trace, { color: false })}\n\nshow it: fencecheck trace show ${b.path}` };
      return { kind: 'trace', anchor, path: b.path, trace: loaded.trace, replay: b.replay ?? traceReplayCommand(b.path, loaded.trace.system) };
    }
  }
}
