/**
 * What the trace module prints through TLC's PrintT (module.ts), read back from TLC's `-tool`
 * output: the lines outside TLC's framed messages. A long value may be pretty-printed over several
 * lines; each print starts with `<<"fc` (or `<< "fc`).
 */
import { parseTlaValue, type TlaValue } from '../../core/tla-value.js';
import { TlcOutputError } from '../../core/tlc-errors.js';
import { splitToolOutput } from '../../tlc/tool-output.js';

/** Every `<<"fc…", …>>` print, parsed, in output order. */
export function tracePrints(raw: string): TlaValue[][] {
  const { stray } = splitToolOutput(raw);
  const blocks: string[] = [];
  let open = 0;
  for (const line of stray) {
    if (open > 0) {
      blocks[blocks.length - 1] += ` ${line.trim()}`;
      open += depthChange(line);
    } else if (/^<<\s*"fc/.test(line)) {
      blocks.push(line);
      open = depthChange(line);
    }
  }
  return blocks.map((b) => {
    let v: TlaValue;
    try {
      v = parseTlaValue(b);
    } catch (err) {
      throw new TlcOutputError(`trace module print not readable (${(err as Error).message}): ${b.slice(0, 80)}`);
    }
    if (v.kind !== 'seq') throw new TlcOutputError(`trace module print is not a tuple: ${b.slice(0, 80)}`);
    return [...v.items];
  });
}

/** How much a line opens brackets (`<<`, `[`, `{`, `(`) minus what it closes, outside strings. */
function depthChange(line: string): number {
  let d = 0;
  let inString = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '<' && line[i + 1] === '<') d++, i++;
    else if (ch === '>' && line[i + 1] === '>') d--, i++;
    else if (ch === '[' || ch === '{' || ch === '(') d++;
    else if (ch === ']' || ch === '}' || ch === ')') d--;
  }
  return d;
}

const int = (v: TlaValue | undefined, what: string): number => {
  if (v?.kind !== 'int') throw new TlcOutputError(`trace module print: ${what} is not an integer`);
  return v.value;
};

/** Per trace of the batch (1-based index), the highest line TLC explained (absent: not even the first). */
export function explainedLines(prints: readonly TlaValue[][]): Map<number, number> {
  const out = new Map<number, number>();
  for (const p of prints) {
    if (p[0]?.kind !== 'str' || p[0].value !== 'fc') continue;
    const t = int(p[1], 'the trace');
    const l = int(p[2], 'the line');
    if (l > (out.get(t) ?? 0)) out.set(t, l);
  }
  return out;
}

/** One successor the diagnosis run printed: of the claims (`claimed`, which form), of any action (`other`), or an initial state (`init`). */
export interface DiagnosisPrint {
  readonly trace: number;
  readonly kind: 'claimed' | 'other' | 'init';
  readonly form: number;
  /** Per spec variable (in the target's order): the observed value matches, or it was not observed. */
  readonly agree: readonly boolean[];
  readonly values: readonly TlaValue[];
  /** Per observed view (in the line's order): the spec's value equals the observed one (TLC's equality). */
  readonly viewsAgree: readonly boolean[];
  /** The spec's value of each observed view, in the line's order. */
  readonly views: readonly TlaValue[];
}

export function diagnosisPrints(prints: readonly TlaValue[][]): DiagnosisPrint[] {
  const out: DiagnosisPrint[] = [];
  for (const p of prints) {
    if (p[0]?.kind !== 'str' || p[0].value !== 'fcd') continue;
    const kind = p[2]?.kind === 'str' ? p[2].value : '';
    if (kind !== 'claimed' && kind !== 'other' && kind !== 'init') throw new TlcOutputError(`diagnosis print of unknown kind ${kind}`);
    const agree = p[4];
    const values = p[5];
    if (agree?.kind !== 'seq' || values?.kind !== 'seq') throw new TlcOutputError('diagnosis print: agreement and values are tuples');
    // A function over 1..n prints as a tuple; an empty one as <<>>.
    const list = (v: TlaValue | undefined): TlaValue[] => (v?.kind === 'seq' ? [...v.items] : v?.kind === 'fn' ? v.entries.map(([, x]) => x) : []);
    out.push({
      trace: int(p[1], 'the trace'),
      kind,
      form: int(p[3], 'the form'),
      agree: agree.items.map((a) => a.kind === 'bool' && a.value),
      values: values.items,
      viewsAgree: list(p[6]).map((a) => a.kind === 'bool' && a.value),
      views: list(p[7]),
    });
  }
  return out;
}
