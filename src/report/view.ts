/**
 * The human report as a neutral document (sections of blocks), built once from the verify document
 * and rendered twice: Markdown (markdown.ts) and self-contained HTML (html.ts).
 */
import type { AnyTrace, FencingTrace } from '../core/trace-format.js';
import { formatTlaStepTable, tlaHeadline } from '../trace/tla-table.js';
import { conformSummary } from './conform-summary.js';
import { g2FiguresText, g2Summary, g2VerdictText } from './g2-summary.js';
import { CONFORM_INTRO, conformBlocks } from './conform-view.js';
import { limiterBlocks } from './limiter-view.js';
import { tlcSection } from './tlc-view.js';
import { traceReplayCommand } from './replay.js';
import { matrixSection } from './matrix-view.js';
import type { StageOutcome, VerifyReport } from './verify-doc.js';
import { formatCounts, formatDuration } from '../core/format.js';

export type Tone = 'ok' | 'bad' | 'warn' | 'muted';

export interface Cell {
  readonly text: string;
  readonly tone?: Tone;
  readonly href?: string;
  readonly title?: string;
}

export type Block =
  | { readonly kind: 'p'; readonly text: string; readonly tone?: Tone }
  | { readonly kind: 'list'; readonly items: readonly string[] }
  | { readonly kind: 'kv'; readonly rows: readonly (readonly [string, string])[] }
  | { readonly kind: 'table'; readonly columns: readonly string[]; readonly rows: readonly (readonly Cell[])[]; readonly id?: string; readonly scroll?: boolean }
  /** Preformatted text; with an anchor and a title, a trace of a seam system's spec (its step table). */
  | { readonly kind: 'code'; readonly text: string; readonly anchor?: string; readonly title?: string }
  /** `replay`: the one command that reruns the trace; shown even while the trace is collapsed. */
  | { readonly kind: 'trace'; readonly anchor: string; readonly path: string; readonly trace: FencingTrace; readonly replay: string }
  | { readonly kind: 'heading'; readonly text: string };

export interface Section {
  readonly id: string;
  readonly title: string;
  readonly blocks: readonly Block[];
}

export interface ReportView {
  readonly title: string;
  readonly status: VerifyReport['verdict']['status'];
  readonly sections: readonly Section[];
}

/** Traces the report can embed: path → parsed trace, or why it could not be read. */
export type TraceSet = ReadonlyMap<string, { trace: AnyTrace } | { error: string }>;

// A full run's traces all embedded: one per mutant × layer (16 × tla/model/impl at most) and the stages' own.
export const MAX_EMBEDDED_TRACES = 64;

export function traceAnchor(path: string): string {
  return `trace-${path.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;
}

const STATUS_TONE: Record<string, Tone> = { passed: 'ok', killed: 'ok', failed: 'bad', error: 'bad', survived: 'bad', 'wrong-invariant': 'bad', missing: 'bad', invalid: 'bad', timeout: 'bad', equivalent: 'warn', 'not-run': 'warn', 'not-selected': 'muted', 'n/a': 'muted' };

function stageStatusText(o: StageOutcome): string {
  return o.status === 'not-run' ? (o.allowedNotRun ? 'not run (allowed)' : 'not run') : o.status;
}

/** `link` turns a project-root-relative path into a link from where the report is written. */
export function buildView(r: VerifyReport, traces: TraceSet, link: (fromRoot: string) => string = (p) => p): ReportView {
  const conform = r.conform !== undefined ? r.conform : conformSummary(r.stages);
  // The conform stage's first mismatch is drawn in its own section (always, whatever the limit); the
  // other traces in the traces section.
  const conformTrace = conform?.failure || conform?.status === 'failed' ? conform.tracePath : undefined;
  const conformAny = conformTrace !== undefined ? traces.get(conformTrace) : undefined;
  // conform's traces are fencing's (the only ones replayed on Valkey).
  const conformLoaded = conformAny && 'trace' in conformAny && conformAny.trace.system !== 'fencing' ? { error: 'not a fencing trace' } : (conformAny as { trace: FencingTrace } | { error: string } | undefined);
  const conformEmbedded = conformTrace !== undefined && conformLoaded !== undefined && 'trace' in conformLoaded;
  const elsewhere = new Set(conformEmbedded ? [conformTrace] : []);
  const embedded = [...traces.entries()].filter(([p, t]) => 'trace' in t && !elsewhere.has(p)).slice(0, MAX_EMBEDDED_TRACES - elsewhere.size);
  const embeddedPaths = new Set([...embedded.map(([p]) => p), ...elsewhere]);
  const sections: Section[] = [
    verdictSection(r),
    stagesSection(r),
    tlcSection(r, (status) => STATUS_TONE[status] ?? 'muted', stageStatusText),
    matrixSection(r, embeddedPaths, link, (status) => STATUS_TONE[status] ?? 'muted'),
    stageDetailSection(r, 'parity', 'Parity report', 'The XState machine\'s reachable states against the TLC state dump, and the action ↔ event ↔ script table.'),
    conformSection(r, conform, conformTrace !== undefined ? { path: conformTrace, anchor: traceAnchor(conformTrace), loaded: conformLoaded } : undefined),
    g2Section(r),
    stageDetailSection(r, 'limiter', 'Limiter table', 'The ordered two-bucket limiter: transition-table rows and how many generated cases exercised each.'),
    ...(['explore', 'props', 'evidence'] as const).map((s) => stageDetailSection(r, s, `Stage: ${s}`, '')),
    tracesSection(traces, embedded, elsewhere),
  ].filter((s): s is Section => s !== null);
  return { title: `fencecheck verify — ${r.verdict.status.toUpperCase()}`, status: r.verdict.status, sections };
}

function verdictSection(r: VerifyReport): Section {
  const blocks: Block[] = [
    { kind: 'p', text: `Verdict: ${r.verdict.status.toUpperCase()} (exit ${r.verdict.exitCode})`, tone: r.verdict.status === 'passed' ? 'ok' : 'bad' },
  ];
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
      ['explore bounds', o.pods !== undefined || o.maxGen !== undefined ? `pods ${o.pods ?? 'default'}, MaxGen ${o.maxGen ?? 'default'}` : 'default'],
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
          { text: stageStatusText(o), tone: STATUS_TONE[o.status] ?? 'muted' },
          { text: formatDuration(o.durationMs) },
          countsCell(formatCounts(o.counts)),
          { text: o.status === 'passed' ? o.summary : (o.reason ?? o.summary) },
          o.logPath ? { text: o.logPath, href: o.logPath } : { text: '-' },
        ]),
      },
    ],
  };
}

/** Long count lists (the limiter's per-row figures) are cut in the table; the full list is the cell's title. */
function countsCell(counts: string): Cell {
  if (counts === '') return { text: '-' };
  return counts.length > 120 ? { text: `${counts.slice(0, 120)}…`, title: counts } : { text: counts };
}

function stageDetailSection(r: VerifyReport, stage: string, title: string, intro: string): Section | null {
  const o = r.stages.find((s) => s.stage === stage);
  if (!o) return null;
  const blocks: Block[] = [];
  if (intro) blocks.push({ kind: 'p', text: intro });
  blocks.push({ kind: 'p', text: `${stageStatusText(o)}: ${o.status === 'passed' ? o.summary : (o.reason ?? o.summary)}`, tone: STATUS_TONE[o.status] ?? 'muted' });
  // The limiter's counts are its table's cells: show the table instead.
  const special = stage === 'limiter' && o.report?.details !== undefined ? limiterBlocks(o.report.details) : null;
  if (special) blocks.push(...special);
  else {
    if (o.counts && Object.keys(o.counts).length > 0) blocks.push({ kind: 'kv', rows: Object.entries(o.counts).map(([k, v]) => [k, String(v)] as const) });
    if (o.report?.details !== undefined) blocks.push(...detailBlocks(o.report.details, 2));
  }
  return { id: `stage-${stage}`, title, blocks };
}

const G2_TONE = { passed: 'ok', failed: 'bad', 'not-run': 'warn' } as const;

/** The G2 matrix: one row per surface, the two verdict columns, the figures it measured. */
function g2Section(r: VerifyReport): Section | null {
  const s = r.g2 !== undefined ? r.g2 : g2Summary(r.stages);
  const o = r.stages.find((x) => x.stage === 'g2');
  if (!s || !o) return null;
  const blocks: Block[] = [
    { kind: 'p', text: 'Seed 003, gate G2: each surface on a real multi-shard Valkey, with two verdicts — errors, and silently wrong (judged against the known population, message ledger or keyspace, never by the absence of errors).' },
    { kind: 'p', text: `${stageStatusText(o)}: ${o.status === 'passed' ? o.summary : (o.reason ?? o.summary)}`, tone: STATUS_TONE[o.status] ?? 'muted' },
  ];
  if (s.rows.length > 0)
    blocks.push({
      kind: 'table',
      id: 'g2-matrix',
      columns: ['row', 'surface', 'errors', 'silently wrong', 'figures'],
      rows: s.rows.map((row) => [
        { text: row.variant ? `${row.name} (${row.variant})` : row.name },
        { text: row.surface },
        { text: g2VerdictText(row.errors), tone: G2_TONE[row.errors.status] },
        { text: g2VerdictText(row.silentlyWrong), tone: G2_TONE[row.silentlyWrong.status] },
        { text: g2FiguresText(row) },
      ]),
    });
  return { id: 'g2', title: 'G2 conformance matrix', blocks };
}

function conformSection(r: VerifyReport, s: ReturnType<typeof conformSummary>, trace: Parameters<typeof conformBlocks>[1]): Section | null {
  const o = r.stages.find((x) => x.stage === 'conform');
  if (!s || !o) return null;
  const blocks: Block[] = [
    { kind: 'p', text: CONFORM_INTRO },
    { kind: 'p', text: `${stageStatusText(o)}: ${o.status === 'passed' ? o.summary : (o.reason ?? o.summary)}`, tone: STATUS_TONE[o.status] ?? 'muted' },
  ];
  const figures = conformBlocks(s, trace);
  if (figures.length > 0) blocks.push(...figures);
  // Details of a shape this section does not know are shown generically rather than dropped.
  if (!s.coverage && o.report?.details !== undefined) blocks.push(...detailBlocks(o.report.details, 2));
  return { id: 'conformance', title: 'Conformance', blocks };
}

/** Any stage's `details`, shown generically: flat fields as key/value rows, arrays of rows as tables. */
export function detailBlocks(details: unknown, depth: number): Block[] {
  if (isRowArray(details)) return [rowsTable(details)];
  if (!isObj(details)) return [{ kind: 'code', text: JSON.stringify(details, null, 2) ?? String(details) }];
  const kv: [string, string][] = [];
  const rest: Block[] = [];
  for (const [k, v] of Object.entries(details)) {
    if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) kv.push([k, String(v)]);
    else if (Array.isArray(v) && v.every((x) => ['string', 'number', 'boolean'].includes(typeof x)) && v.length <= 30) kv.push([k, v.join(', ')]);
    else if (isRowArray(v)) rest.push({ kind: 'heading', text: k }, rowsTable(v));
    else if (isObj(v) && depth > 0) rest.push({ kind: 'heading', text: k }, ...detailBlocks(v, depth - 1));
    else rest.push({ kind: 'heading', text: k }, { kind: 'code', text: truncate(JSON.stringify(v, null, 2) ?? '', 4000) });
  }
  return [...(kv.length > 0 ? [{ kind: 'kv', rows: kv } as Block] : []), ...rest];
}

const MAX_ROWS = 300;

function rowsTable(rows: readonly Record<string, unknown>[]): Block {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const show = (v: unknown) => (v === undefined ? '' : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
  return { kind: 'table', columns, rows: rows.slice(0, MAX_ROWS).map((r) => columns.map((c) => ({ text: truncate(show(r[c]), 300) }))) };
}

function isRowArray(v: unknown): v is Record<string, unknown>[] {
  return Array.isArray(v) && v.length > 0 && v.every(isObj);
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}… (${s.length - n} more characters)` : s;
}

function tracesSection(traces: TraceSet, embedded: readonly [string, { trace: AnyTrace } | { error: string }][], elsewhere: ReadonlySet<string>): Section | null {
  if ([...traces.keys()].every((p) => elsewhere.has(p))) return null;
  const blocks: Block[] = [];
  const unreadable = [...traces.entries()].filter(([, t]) => 'error' in t).map(([p, t]) => `${p}: ${'error' in t ? t.error : ''}`);
  const readable = [...traces.entries()].filter(([p, t]) => 'trace' in t && !elsewhere.has(p)).length;
  if (readable > embedded.length) blocks.push({ kind: 'p', text: `${readable - embedded.length} more traces are not embedded (limit ${MAX_EMBEDDED_TRACES}); see reports/traces.`, tone: 'muted' });
  if (unreadable.length > 0) blocks.push({ kind: 'p', text: 'Traces that could not be read:', tone: 'warn' }, { kind: 'list', items: unreadable });
  for (const [path, t] of embedded) {
    if (!('trace' in t)) continue;
    if (t.trace.system === 'fencing') blocks.push({ kind: 'trace', anchor: traceAnchor(path), path, trace: t.trace, replay: traceReplayCommand(path) });
    // Another spec's TLC counterexample: its step table (it replays through TLC, not on Valkey).
    else blocks.push({ kind: 'code', anchor: traceAnchor(path), title: `${path} · ${tlaHeadline(t.trace)}`, text: `${formatTlaStepTable(t.trace, { color: false })}\n\nshow it: fencecheck trace show ${path}` });
  }
  return { id: 'traces', title: 'Counterexample traces', blocks };
}
