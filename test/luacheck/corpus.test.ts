import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkLuaSource } from '../../src/luacheck/check.js';
import { DEFAULT_INCLUDE_PATTERN, includePattern } from '../../src/luacheck/includes.js';

/**
 * The fixture corpus: scripts written for the project in the idioms of public queue and limiter
 * libraries, clean and dirty. expected.json lists every finding; the `--! kind` marker at the end
 * of a line says, independently of it, which findings the line must give.
 */
const DIR = join(import.meta.dirname, 'corpus');
const scripts = readdirSync(DIR)
  .filter((f) => f.endsWith('.lua'))
  .sort();
const expected = JSON.parse(readFileSync(join(DIR, 'expected.json'), 'utf8')) as Record<string, unknown[]>;
const pattern = includePattern(DEFAULT_INCLUDE_PATTERN);

const actual = (name: string) => {
  const file = join(DIR, name);
  const r = checkLuaSource(readFileSync(file, 'utf8'), { file, includePattern: pattern });
  if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
  return r.findings.map((x) => ({
    file: relative(DIR, x.file),
    line: x.line,
    column: x.column,
    kind: x.kind,
    severity: x.severity,
    ...(x.command && { command: x.command }),
    ...(x.key && { key: x.key }),
  }));
};

describe('lua-check corpus', () => {
  it('holds at least 40 scripts, clean and dirty, each listed in expected.json', () => {
    expect(scripts.length).toBeGreaterThanOrEqual(40);
    expect(scripts.filter((s) => s.startsWith('clean-')).length).toBeGreaterThanOrEqual(15);
    expect(scripts.filter((s) => s.startsWith('dirty-')).length).toBeGreaterThanOrEqual(15);
    expect(Object.keys(expected).sort()).toEqual(scripts);
  });

  it.each(scripts)('%s: exactly the expected findings', (name) => {
    expect(actual(name)).toEqual(expected[name]);
  });

  it('expected.json agrees with the markers written in the scripts', () => {
    const marked: string[] = [];
    const files = [...scripts, ...readdirSync(join(DIR, 'includes')).map((f) => `includes/${f}`)];
    for (const f of files)
      readFileSync(join(DIR, f), 'utf8')
        .split('\n')
        .forEach((l, i) => {
          const m = /--!\s*(.*)$/.exec(l);
          if (m) for (const kind of m[1]!.trim().split(/\s+/)) marked.push(`${f}:${i + 1} ${kind}`);
        });
    const listed = Object.values(expected)
      .flat()
      .map((x) => {
        const f = x as { file: string; line: number; kind: string };
        return `${f.file}:${f.line} ${f.kind}`;
      });
    expect(listed.sort()).toEqual(marked.sort());
    expect(scripts.filter((s) => s.startsWith('clean-')).every((s) => expected[s]!.length === 0)).toBe(true);
    expect(scripts.filter((s) => s.startsWith('dirty-')).every((s) => expected[s]!.length > 0)).toBe(true);
  });
});
