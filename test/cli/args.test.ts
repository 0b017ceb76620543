import { describe, expect, it } from 'vitest';
import { intOption, parseCommandArgs, parseIntValue, SEED_RANGE, UsageError } from '../../src/core/args.js';

describe('parseIntValue: decimal integers only, in range', () => {
  it.each(['0', '42', '-5', '2147483647', '-2147483648'])('accepts %s', (raw) => {
    expect(parseIntValue('--seed', raw, SEED_RANGE)).toBe(Number(raw));
  });
  it.each(['', ' 5', '5 ', '+5', '1e3', '1E3', '0x10', '0o7', '0b1', '1.0', '1.5', '-', '--5', 'Infinity', 'NaN', '١٢'])('refuses %j', (raw) => {
    expect(() => parseIntValue('--runs', raw, { min: 1 })).toThrow(UsageError);
  });
  it('refuses values outside the range, naming it', () => {
    expect(() => parseIntValue('--runs', '0', { min: 1, max: 10 })).toThrow('--runs takes an integer from 1 to 10, got "0"');
    expect(() => parseIntValue('--seed', '2147483648', SEED_RANGE)).toThrow(/--seed takes an integer from -2147483648 to 2147483647/);
    expect(() => parseIntValue('--n', '9007199254740993')).toThrow(UsageError);
  });
});

describe('intOption', () => {
  it('returns the default when absent, the value when given', () => {
    expect(intOption({}, 'runs', { min: 1, default: 7 })).toBe(7);
    expect(intOption({}, 'seed')).toBeUndefined();
    expect(intOption({ runs: '3' }, 'runs', { min: 1, default: 7 })).toBe(3);
  });
});

describe('parseCommandArgs: negative numbers are values, not "ambiguous"', () => {
  const opts = { seed: { type: 'string' }, json: { type: 'boolean' }, n: { type: 'string', short: 'n' } } as const;
  it('takes --seed -5, --seed=-5 and -n -3', () => {
    expect(parseCommandArgs(['--seed', '-5', '--json'], opts).values).toEqual({ seed: '-5', json: true });
    expect(parseCommandArgs(['--seed=-5'], opts).values).toEqual({ seed: '-5' });
    expect(parseCommandArgs(['-n', '-3'], opts).values).toEqual({ n: '-3' });
  });
  it('still refuses an option given where a value belongs, and a negative number after a boolean', () => {
    expect(() => parseCommandArgs(['--seed', '--json'], opts)).toThrow(UsageError);
    expect(() => parseCommandArgs(['--json', '-5'], opts)).toThrow(UsageError);
  });
});
