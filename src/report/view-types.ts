/**
 * The human report as a neutral document: sections of blocks, built once from the verify document
 * (view.ts) and rendered twice, as Markdown (markdown.ts) and self-contained HTML (html.ts).
 */
import type { AnyTrace, TraceLike } from '../core/trace-format.js';
import type { Tone } from '../core/report-details.js';
import type { StageOutcome, VerifyReport } from './verify-doc.js';

export type { Tone };

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
  /** `scroll`: wide, it scrolls inside its own box; `nowrap`: cells keep to one line. */
  | { readonly kind: 'table'; readonly columns: readonly string[]; readonly rows: readonly (readonly Cell[])[]; readonly id?: string; readonly scroll?: boolean; readonly nowrap?: boolean }
  /** Preformatted text; with an anchor and a title, a trace of another spec (its step table). */
  | { readonly kind: 'code'; readonly text: string; readonly anchor?: string; readonly title?: string }
  /** `replay`: the one command that reruns the trace; shown even while the trace is collapsed. */
  | { readonly kind: 'trace'; readonly anchor: string; readonly path: string; readonly trace: TraceLike; readonly replay: string }
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

const STATUS_TONE: Readonly<Record<string, Tone>> = {
  passed: 'ok',
  killed: 'ok',
  failed: 'bad',
  error: 'bad',
  survived: 'bad',
  'wrong-invariant': 'bad',
  missing: 'bad',
  invalid: 'bad',
  timeout: 'bad',
  equivalent: 'warn',
  'not-run': 'warn',
  'not-selected': 'muted',
  'n/a': 'muted',
};

/** The tone of a stage status or a mutant verdict. */
export function statusTone(status: string): Tone {
  return STATUS_TONE[status] ?? 'muted';
}

export function stageStatusText(o: StageOutcome): string {
  return o.status === 'not-run' ? (o.allowedNotRun ? 'not run (allowed)' : 'not run') : o.status;
}

/** `passed: <summary>` or `not run: <reason>`: a stage's verdict line in its sections. */
export function stageVerdictBlock(o: StageOutcome): Block {
  return { kind: 'p', text: `${stageStatusText(o)}: ${o.status === 'passed' ? o.summary : (o.reason ?? o.summary)}`, tone: statusTone(o.status) };
}
