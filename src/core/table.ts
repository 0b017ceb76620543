/**
 * The one plain-text table renderer of every command (parity, conform, mutants, limiter, verify,
 * trace show/replay). Columns are padded to their widest cell; when the table is wider than the
 * terminal, the widest columns are narrowed and their cells wrap onto continuation lines (at spaces
 * and commas, a long word is cut), so no line runs past the screen. Widths are measured on the plain
 * text: colours are applied afterwards by `style`, so they never disturb the alignment.
 */
export interface TableOptions {
  /** Longest line allowed; default `terminalWidth()` (unbounded when stdout is not a terminal). */
  readonly width?: number;
  /** Right-align these column indexes (figures). */
  readonly alignRight?: readonly number[];
  /** Decorate one padded cell segment (ANSI colour); `row` is -1 for the header and the rule. */
  readonly style?: (padded: string, row: number, col: number) => string;
}

const GAP = '  ';
/** A column is never narrowed below this (or its header's length, whichever is smaller). */
const MIN_COLUMN = 8;

/**
 * Where the table must fit: `COLUMNS` when set (a user's override, also in CI), else the terminal's
 * width, else no limit — a table piped to a file or a CI log is never wrapped.
 */
export function terminalWidth(stream: { isTTY?: boolean; columns?: number } = process.stdout, env: NodeJS.ProcessEnv = process.env): number {
  const fromEnv = Number(env.COLUMNS);
  if (Number.isInteger(fromEnv) && fromEnv >= 20) return fromEnv;
  if (stream.isTTY && stream.columns && stream.columns >= 20) return stream.columns;
  return Number.POSITIVE_INFINITY;
}

export function renderTable(header: readonly string[], rows: readonly (readonly string[])[], opts: TableOptions = {}): string {
  const n = header.length;
  const cellOf = (r: readonly string[], i: number) => r[i] ?? '';
  const natural = header.map((h, i) => Math.max(h.length, ...rows.map((r) => cellOf(r, i).length)));
  const widths = fit(natural, header, opts.width ?? terminalWidth());
  const right = new Set(opts.alignRight ?? []);
  const style = opts.style ?? ((s: string) => s);
  const lines: string[] = [];
  const emit = (cells: readonly string[], row: number) => {
    const wrapped = cells.map((c, i) => wrap(c, widths[i]!));
    const height = Math.max(1, ...wrapped.map((w) => w.length));
    for (let k = 0; k < height; k++) {
      const texts = wrapped.map((w) => w[k] ?? '');
      // Nothing is padded past the last non-empty cell: no trailing spaces, coloured or not.
      let end = texts.length - 1;
      while (end > 0 && texts[end] === '') end--;
      const segs = texts.slice(0, end + 1).map((text, i) => {
        const padded = i === end && !right.has(i) ? text : right.has(i) ? text.padStart(widths[i]!) : text.padEnd(widths[i]!);
        return text === '' ? padded : style(padded, row, i);
      });
      lines.push(segs.join(GAP));
    }
  };
  emit(header, -1);
  lines.push(widths.map((w) => '-'.repeat(w)).join(GAP));
  rows.forEach((r, i) =>
    emit(
      Array.from({ length: n }, (_, c) => cellOf(r, c)),
      i,
    ),
  );
  return lines.join('\n');
}

/** Narrow the widest columns, one character at a time, until the row fits (or none can give more). */
function fit(natural: readonly number[], header: readonly string[], width: number): number[] {
  const widths = [...natural];
  if (!Number.isFinite(width)) return widths;
  const floor = natural.map((w, i) => Math.min(w, Math.max(MIN_COLUMN, Math.min(header[i]!.length, 16))));
  const total = () => widths.reduce((a, b) => a + b, 0) + GAP.length * (widths.length - 1);
  while (total() > width) {
    let widest = -1;
    for (let i = 0; i < widths.length; i++) if (widths[i]! > floor[i]! && (widest < 0 || widths[i]! > widths[widest]!)) widest = i;
    if (widest < 0) break;
    widths[widest]!--;
  }
  return widths;
}

/** Break a cell into lines of at most `width` characters, preferring spaces and commas. */
export function wrap(text: string, width: number): string[] {
  if (text.length <= width) return [text];
  const out: string[] = [];
  let rest = text;
  while (rest.length > width) {
    const window = rest.slice(0, width + 1);
    const comma = window.lastIndexOf(',');
    const cut = Math.max(window.lastIndexOf(' '), comma >= 0 ? comma + 1 : -1);
    const at = cut > 0 && cut <= width ? cut : width;
    out.push(rest.slice(0, at).trimEnd());
    rest = rest.slice(at).trimStart();
  }
  if (rest.length > 0) out.push(rest);
  return out;
}
