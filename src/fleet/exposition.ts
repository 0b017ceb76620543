/**
 * A strict reader of Prometheus' text exposition format (version 0.0.4): what a `/metrics` endpoint
 * serves. Strict on purpose: a deployment gate that skipped a line it could not read would decide on
 * part of the fleet, so any line that is not a comment, a HELP/TYPE line or a well-formed sample is
 * an ExpositionError naming its line. (The one npm parser, parse-prometheus-text-format, is lenient
 * and unmaintained since 2018: docs/decisions.md, "The gate reads the fleet".)
 */

export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
  /** Milliseconds since the epoch, when the exposition gave one. */
  readonly timestampMs?: number;
}

export class ExpositionError extends Error {
  override readonly name = 'ExpositionError';
  constructor(
    readonly line: number,
    problem: string,
  ) {
    super(`line ${line}: ${problem}`);
  }
}

const METRIC = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

function parseValue(text: string, line: number): number {
  if (text === 'NaN') return Number.NaN;
  if (text === '+Inf' || text === 'Inf') return Number.POSITIVE_INFINITY;
  if (text === '-Inf') return Number.NEGATIVE_INFINITY;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) throw new ExpositionError(line, `'${text}' is not a sample value`);
  return Number(text);
}

/** The label set `{a="x",b="y"}` at the start of `rest`; returns the labels and what follows. */
function parseLabels(rest: string, line: number): { labels: Record<string, string>; after: string } {
  const labels: Record<string, string> = {};
  let s = rest.slice(1).trimStart();
  while (!s.startsWith('}')) {
    const name = LABEL.exec(s)?.[0];
    if (name === undefined) throw new ExpositionError(line, `expected a label name at '${s.slice(0, 20)}'`);
    if (Object.hasOwn(labels, name)) throw new ExpositionError(line, `label '${name}' given twice`);
    s = s.slice(name.length).trimStart();
    if (!s.startsWith('=')) throw new ExpositionError(line, `expected '=' after label '${name}'`);
    s = s.slice(1).trimStart();
    if (!s.startsWith('"')) throw new ExpositionError(line, `label '${name}' has no quoted value`);
    let value = '';
    let i = 1;
    for (;;) {
      const c = s[i];
      if (c === undefined) throw new ExpositionError(line, `label '${name}': unterminated value`);
      if (c === '"') break;
      if (c === '\\') {
        const e = s[i + 1];
        if (e === 'n') value += '\n';
        else if (e === '\\' || e === '"') value += e;
        else throw new ExpositionError(line, `label '${name}': bad escape '\\${e ?? ''}'`);
        i += 2;
        continue;
      }
      value += c;
      i++;
    }
    labels[name] = value;
    s = s.slice(i + 1).trimStart();
    if (s.startsWith(',')) s = s.slice(1).trimStart();
    else if (!s.startsWith('}')) throw new ExpositionError(line, `expected ',' or '}' after label '${name}'`);
  }
  return { labels, after: s.slice(1) };
}

/** Every sample of `text`; ExpositionError at the first line that is not well-formed. */
export function parseExposition(text: string): Sample[] {
  const out: Sample[] = [];
  const typed = new Map<string, string>();
  text.split('\n').forEach((raw, i) => {
    const line = i + 1;
    const l = raw.replace(/\r$/, '').trim();
    if (l === '') return;
    if (l.startsWith('#')) {
      const m = /^#\s*(HELP|TYPE)\s+(\S+)\s*(.*)$/.exec(l);
      if (!m) return; // a plain comment
      if (!METRIC.test(m[2]!) || METRIC.exec(m[2]!)![0] !== m[2]) throw new ExpositionError(line, `'${m[2]}' is not a metric name`);
      if (m[1] === 'TYPE') {
        if (!TYPES.has(m[3]!)) throw new ExpositionError(line, `'${m[3]}' is not a metric type`);
        if (typed.has(m[2]!)) throw new ExpositionError(line, `a second TYPE line for '${m[2]}'`);
        typed.set(m[2]!, m[3]!);
      }
      return;
    }
    const name = METRIC.exec(l)?.[0];
    if (name === undefined) throw new ExpositionError(line, `'${l.slice(0, 40)}' is not a sample`);
    let rest = l.slice(name.length);
    let labels: Record<string, string> = {};
    if (rest.startsWith('{')) ({ labels, after: rest } = parseLabels(rest, line));
    const fields = rest.trim().split(/\s+/);
    if (!/^\s/.test(rest) || fields.length < 1 || fields.length > 2 || fields[0] === '') throw new ExpositionError(line, `sample '${name}' needs a value and at most a timestamp`);
    const value = parseValue(fields[0]!, line);
    const ts = fields[1];
    if (ts !== undefined && !/^-?\d+$/.test(ts)) throw new ExpositionError(line, `'${ts}' is not a timestamp (milliseconds)`);
    out.push({ name, labels, value, ...(ts !== undefined && { timestampMs: Number(ts) }) });
  });
  return out;
}
