import { describe, expect, it } from 'vitest';
import { formatTlaValue, parseTlaValue, type TlaValue } from '../../src/core/tla-value.js';
import { tlaText } from '../../src/seam/tracecheck/module.js';
import { ObservedTraceError } from '../../src/seam/tracecheck/format.js';

const emptyRecord: TlaValue = { kind: 'record', fields: {} };
const emptyFn: TlaValue = { kind: 'fn', entries: [] };
const unreadable: TlaValue = { kind: 'unreadable', text: '?!', error: 'bad' };

describe('the one TLA+ value printer', () => {
  it('shows a value as TLC prints it', () => {
    const v = parseTlaValue('[k |-> {<<1, "x">>}, m |-> (a :> {a, b}), i |-> 1..2, t |-> TRUE]');
    expect(formatTlaValue(v)).toBe('[k |-> {<<1, "x">>}, m |-> (a :> {a, b}), i |-> 1..2, t |-> TRUE]');
    expect(formatTlaValue(unreadable)).toBe('?!');
  });

  it("writes a module's source: an empty record or function is <<>>, nested too; the rest as shown", () => {
    expect(tlaText(emptyRecord)).toBe('<<>>');
    expect(tlaText(emptyFn)).toBe('<<>>');
    expect(tlaText({ kind: 'seq', items: [emptyFn, { kind: 'record', fields: { f: emptyRecord } }] })).toBe('<<<<>>, [f |-> <<>>]>>');
    const v = parseTlaValue('[k |-> {<<1, "x">>}, m |-> (a :> {a, b}), n |-> -3]');
    expect(tlaText(v)).toBe(formatTlaValue(v));
  });

  it('refuses an unreadable value in a module, never writes its text', () => {
    expect(() => tlaText({ kind: 'set', items: [unreadable] })).toThrow(ObservedTraceError);
  });
});
