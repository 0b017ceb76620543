/**
 * What a stage hands the verify reports in its StageReport's `details`, naming no system:
 * - `sections`: titled sections of blocks — text, key/value rows, tables (a cell may link to a
 *   trace), coverage figures (executed of the model's total), code, a trace drawn in place;
 * - `suites`: JUnit suites of named cases (passed, failed, not run, error);
 * - `tlcModels`: one TLC block per model checked (hashes, figures, the command line).
 * A system's command produces them; src/report/ renders them (Markdown, HTML, JUnit, verify.json)
 * and nothing system-specific. readReportDetails() takes them back out of a parsed document and
 * leaves out whatever does not match these shapes: a report never guesses.
 */

export type Tone = 'ok' | 'bad' | 'warn' | 'muted';

export interface ReportCell {
  readonly text: string;
  readonly tone?: Tone;
  /** Hover text: what the cell's words leave out. */
  readonly title?: string;
  /** A trace file (as the stage's `traces` name it): the cell links to it. */
  readonly trace?: string;
}

/** One coverage figure: how many of the model's `model` the run executed. */
export interface CoverageRow {
  readonly name: string;
  readonly executed: number;
  readonly model: number;
}

export type ReportBlock =
  | { readonly kind: 'p'; readonly text: string; readonly tone?: Tone }
  | { readonly kind: 'heading'; readonly text: string }
  | { readonly kind: 'list'; readonly items: readonly string[] }
  | { readonly kind: 'kv'; readonly rows: readonly (readonly [string, string])[] }
  /** `id`: an anchor for links and styles; `nowrap`: cells keep to one line (figures). */
  | { readonly kind: 'table'; readonly id?: string; readonly columns: readonly string[]; readonly rows: readonly (readonly ReportCell[])[]; readonly nowrap?: boolean }
  /** A table `label | executed | model total | %`, one row per figure, red where short of the model. */
  | { readonly kind: 'coverage'; readonly id?: string; readonly label: string; readonly rows: readonly CoverageRow[] }
  | { readonly kind: 'code'; readonly text: string }
  /** A trace drawn here (not again among the report's other traces), with the one command that replays it. */
  | { readonly kind: 'trace'; readonly path: string; readonly replay?: string };

export interface ReportSection {
  /** Unique in a report (an anchor), e.g. `conformance`. */
  readonly id: string;
  readonly title: string;
  /** The first paragraph: what the stage checks. The report puts the stage's verdict right after it. */
  readonly intro?: string;
  readonly blocks: readonly ReportBlock[];
}

export type CaseStatus = 'passed' | 'failed' | 'not-run' | 'error';

export interface ReportCase {
  /** Unique in its suite (CI tools key results on it). */
  readonly name: string;
  readonly status: CaseStatus;
  /** Why, for every status but passed. */
  readonly message?: string;
  /** A failure's or error's detail lines; its last line is `replay: <command>` when there is one. */
  readonly body?: string;
  readonly out?: string;
  readonly seconds?: number;
}

export interface ReportSuite {
  /** `conform` is JUnit suite and classname `fencecheck.conform`. */
  readonly name: string;
  readonly cases: readonly ReportCase[];
}

export interface TlcDump {
  readonly file?: string;
  readonly sha256: string;
  readonly count?: number;
}

/** The TLC figures of one model: what TLC checked (spec, config, hashes, bounds) and what it found. */
export interface TlcModelBlock {
  /** The spec's module name, e.g. `PauseSnapshot`. */
  readonly model: string;
  /** `live`: TLC ran in this run; `evidence`: the committed evidence, checked fresh in this run. */
  readonly from: 'live' | 'evidence';
  readonly spec?: string;
  readonly specSha256?: string;
  readonly config?: string;
  readonly configSha256?: string;
  readonly tlcVersion?: string;
  /** The spec's constants as the evidence records them (`{ pods: [...], maxGen: 4 }`). */
  readonly bounds?: unknown;
  readonly generated?: number;
  readonly distinct?: number;
  readonly depth?: number;
  readonly invariants?: readonly string[];
  readonly durationMs?: number;
  readonly outcome?: string;
  /** The state dump and the labelled edge list parity compares against. */
  readonly dumps?: { readonly states?: TlcDump; readonly edges?: TlcDump };
  /** The TLC command line as recorded (temporary paths as `<tmp>`). */
  readonly command?: string;
}

/** The parts of a stage's `details` the verify reports render. */
export interface ReportDetails {
  readonly sections?: readonly ReportSection[];
  readonly suites?: readonly ReportSuite[];
  readonly tlcModels?: readonly TlcModelBlock[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const TONES: readonly unknown[] = ['ok', 'bad', 'warn', 'muted'];
const STATUSES: readonly unknown[] = ['passed', 'failed', 'not-run', 'error'];

/** Only the optional fields that hold a value of the right type. */
function pickOptional(o: Obj, fields: Readonly<Record<string, (v: unknown) => boolean>>): Obj {
  const out: Obj = {};
  for (const [k, ok] of Object.entries(fields)) if (o[k] !== undefined && ok(o[k])) out[k] = o[k];
  return out;
}

function cellOf(v: unknown): ReportCell | null {
  if (!isObj(v) || !isStr(v.text)) return null;
  return { text: v.text, ...pickOptional(v, { tone: (t) => TONES.includes(t), title: isStr, trace: isStr }) } as ReportCell;
}

function blockOf(v: unknown): ReportBlock | null {
  if (!isObj(v)) return null;
  switch (v.kind) {
    case 'p':
      return isStr(v.text) ? ({ kind: 'p', text: v.text, ...pickOptional(v, { tone: (t) => TONES.includes(t) }) } as ReportBlock) : null;
    case 'heading':
      return isStr(v.text) ? { kind: 'heading', text: v.text } : null;
    case 'code':
      return isStr(v.text) ? { kind: 'code', text: v.text } : null;
    case 'list':
      return Array.isArray(v.items) && v.items.every(isStr) ? { kind: 'list', items: v.items } : null;
    case 'kv':
      return Array.isArray(v.rows) && v.rows.every((r) => Array.isArray(r) && r.length === 2 && r.every(isStr)) ? { kind: 'kv', rows: v.rows as [string, string][] } : null;
    case 'table': {
      if (!Array.isArray(v.columns) || !v.columns.every(isStr) || !Array.isArray(v.rows)) return null;
      const rows = v.rows.map((r) => (Array.isArray(r) ? r.map(cellOf) : null));
      // biome-ignore lint/complexity/useOptionalChain: a type predicate must return a boolean, not undefined
      if (!rows.every((r): r is ReportCell[] => r !== null && r.every((c) => c !== null))) return null;
      return { kind: 'table', columns: v.columns, rows, ...pickOptional(v, { id: isStr, nowrap: (b) => typeof b === 'boolean' }) } as ReportBlock;
    }
    case 'coverage': {
      if (!isStr(v.label) || !Array.isArray(v.rows)) return null;
      const rows = v.rows.filter((r): r is CoverageRow => isObj(r) && isStr(r.name) && isNum(r.executed) && isNum(r.model));
      return rows.length === v.rows.length ? ({ kind: 'coverage', label: v.label, rows, ...pickOptional(v, { id: isStr }) } as ReportBlock) : null;
    }
    case 'trace':
      return isStr(v.path) ? ({ kind: 'trace', path: v.path, ...pickOptional(v, { replay: isStr }) } as ReportBlock) : null;
    default:
      return null;
  }
}

function sectionOf(v: unknown): ReportSection | null {
  if (!isObj(v) || !isStr(v.id) || !isStr(v.title) || !Array.isArray(v.blocks)) return null;
  const blocks = v.blocks.map(blockOf).filter((b): b is ReportBlock => b !== null);
  return { id: v.id, title: v.title, ...(isStr(v.intro) ? { intro: v.intro } : {}), blocks };
}

function caseOf(v: unknown): ReportCase | null {
  if (!isObj(v) || !isStr(v.name) || !STATUSES.includes(v.status)) return null;
  if (v.status !== 'passed' && !isStr(v.message)) return null;
  return { name: v.name, status: v.status as CaseStatus, ...pickOptional(v, { message: isStr, body: isStr, out: isStr, seconds: isNum }) } as ReportCase;
}

function suiteOf(v: unknown): ReportSuite | null {
  if (!isObj(v) || !isStr(v.name) || !Array.isArray(v.cases)) return null;
  return { name: v.name, cases: v.cases.map(caseOf).filter((c): c is ReportCase => c !== null) };
}

function dumpOf(v: unknown): TlcDump | undefined {
  return isObj(v) && isStr(v.sha256) ? ({ sha256: v.sha256, ...pickOptional(v, { file: isStr, count: isNum }) } as TlcDump) : undefined;
}

function tlcModelOf(v: unknown): TlcModelBlock | null {
  if (!isObj(v) || !isStr(v.model) || (v.from !== 'live' && v.from !== 'evidence')) return null;
  const fields = pickOptional(v, {
    spec: isStr,
    specSha256: isStr,
    config: isStr,
    configSha256: isStr,
    tlcVersion: isStr,
    bounds: (b) => b !== null,
    generated: isNum,
    distinct: isNum,
    depth: isNum,
    invariants: (i) => Array.isArray(i) && i.every(isStr),
    durationMs: isNum,
    outcome: isStr,
    command: isStr,
  });
  const states = isObj(v.dumps) ? dumpOf(v.dumps.states) : undefined;
  const edges = isObj(v.dumps) ? dumpOf(v.dumps.edges) : undefined;
  return { model: v.model, from: v.from, ...fields, ...(states || edges ? { dumps: { ...(states ? { states } : {}), ...(edges ? { edges } : {}) } } : {}) } as TlcModelBlock;
}

/** The sections, suites and TLC blocks a stage's `details` carry; what does not match is left out. */
export function readReportDetails(details: unknown): { sections: ReportSection[]; suites: ReportSuite[]; tlcModels: TlcModelBlock[] } {
  const d = isObj(details) ? details : {};
  const list = <T>(v: unknown, of: (x: unknown) => T | null): T[] => (Array.isArray(v) ? v.map(of).filter((x): x is T => x !== null) : []);
  return { sections: list(d.sections, sectionOf), suites: list(d.suites, suiteOf), tlcModels: list(d.tlcModels, tlcModelOf) };
}
