import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/core/project-root.js';
import { renderTable, terminalWidth, wrap } from '../../src/core/table.js';

const header = ['mutant', 'verdict', 'why'];
const rows = [
  ['M1', 'killed', 'Inv_SingleAuthority broke after 9 steps, replay with fencecheck trace replay reports/traces/M1.json'],
  ['M22', 'survived', '-'],
];

describe('renderTable (the one table renderer)', () => {
  it('pads every column to its widest cell when there is no width limit', () => {
    const out = renderTable(
      ['a', 'bb'],
      [
        ['xxx', 'y'],
        ['z', 'wwww'],
      ],
      { width: Number.POSITIVE_INFINITY },
    );
    expect(out).toBe(['a    bb', '---  ----', 'xxx  y', 'z    wwww'].join('\n'));
  });

  it('fits the width: no line is longer, and every word of every cell is still there', () => {
    for (const width of [40, 60, 80]) {
      const out = renderTable(header, rows, { width });
      for (const line of out.split('\n')) expect(line.length).toBeLessThanOrEqual(width);
      const words = out.split(/\s+/).join(' ');
      for (const w of rows.flat().join(' ').split(/\s+/)) expect(words).toContain(w.slice(0, 8));
    }
  });

  it('keeps continuation lines in their column', () => {
    const out = renderTable(header, rows, { width: 50 }).split('\n');
    const col = out[0]!.indexOf('why');
    const cont = out.slice(3).filter((l) => l.startsWith(' '));
    expect(cont.length).toBeGreaterThan(0);
    for (const l of cont) expect(l.search(/\S/)).toBe(col);
  });

  it('styles after padding, so colour never moves a column', () => {
    const plain = renderTable(header, rows, { width: 60 });
    const coloured = renderTable(header, rows, { width: 60, style: (s, r) => (r === 0 ? `\x1b[7m${s}\x1b[0m` : s) });
    // eslint-disable-next-line no-control-regex
    expect(coloured.replace(/\x1b\[\d+m/g, '')).toBe(plain);
  });

  it('right-aligns figures', () => {
    expect(
      renderTable(['n'], [['1'], ['100']], { alignRight: [0] })
        .split('\n')
        .slice(2),
    ).toEqual(['  1', '100']);
  });

  it('wraps at spaces and commas, cutting only a word longer than the column', () => {
    expect(wrap('a,b,c,d', 4)).toEqual(['a,b,', 'c,d']);
    expect(wrap('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrap('one two three', 7)).toEqual(['one two', 'three']);
  });

  it('takes COLUMNS, then the terminal, and never wraps a pipe', () => {
    expect(terminalWidth({ isTTY: true, columns: 100 }, {})).toBe(100);
    expect(terminalWidth({ isTTY: true, columns: 100 }, { COLUMNS: '72' })).toBe(72);
    expect(terminalWidth({ isTTY: false }, {})).toBe(Number.POSITIVE_INFINITY);
    expect(terminalWidth({ isTTY: false }, { COLUMNS: 'wide' })).toBe(Number.POSITIVE_INFINITY);
  });

  it('a real command (parity) fits COLUMNS=80', () => {
    const out = execFileSync(process.execPath, ['bin/fencecheck.mjs', 'parity'], { cwd: projectRoot, env: { ...process.env, COLUMNS: '80' }, encoding: 'utf8' });
    const long = out.split('\n').filter((l) => l.length > 80 && l.includes('  '));
    expect(long).toEqual([]);
  });
});
