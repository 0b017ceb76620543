import { describe, expect, it } from 'vitest';
import { ExpositionError, parseExposition } from '../../src/fleet/exposition.js';

describe('the exposition text reader', () => {
  it('reads samples, labels with escapes, special values and timestamps; skips comments', () => {
    const text = [
      '# HELP relay_phase the script phase this pod runs',
      '# TYPE relay_phase gauge',
      '# a plain comment',
      'relay_phase{pod="relay-1-a",phase="B"} 1',
      'relay_phase{pod="relay-1-a",phase="A",} 0 1700000000000',
      'odd{v="a\\"b\\\\c\\nd"} NaN',
      'up +Inf',
      '',
    ].join('\n');
    const s = parseExposition(text);
    expect(s).toHaveLength(4);
    expect(s[0]).toEqual({ name: 'relay_phase', labels: { pod: 'relay-1-a', phase: 'B' }, value: 1 });
    expect(s[1]!.timestampMs).toBe(1_700_000_000_000);
    expect(s[2]!.labels.v).toBe('a"b\\c\nd');
    expect(Number.isNaN(s[2]!.value)).toBe(true);
    expect(s[3]!.value).toBe(Number.POSITIVE_INFINITY);
  });

  it.each([
    ['a value that is not a number', 'relay_phase{phase="B"} one', /line 1: 'one' is not a sample value/],
    ['no value', 'relay_phase{phase="B"}', /line 1: sample 'relay_phase' needs a value/],
    ['an unterminated label value', 'x{phase="B} 1', /unterminated value/],
    ['a label given twice', 'x{phase="B",phase="C"} 1', /label 'phase' given twice/],
    ['a bad escape', 'x{phase="\\q"} 1', /bad escape/],
    ['a non-integer timestamp', 'x 1 12.5', /is not a timestamp/],
    ['an unknown type', '# TYPE x meter', /'meter' is not a metric type/],
    ['a second TYPE line', '# TYPE x gauge\n# TYPE x gauge', /line 2: a second TYPE line/],
    ['HTML', '<html><body>502</body></html>', /line 1: .* is not a sample/],
    ['three fields', 'x 1 2 3', /needs a value and at most a timestamp/],
  ])('refuses %s, naming the line', (_what, text, why) => {
    expect(() => parseExposition(text)).toThrow(ExpositionError);
    expect(() => parseExposition(text)).toThrow(why);
  });
});
