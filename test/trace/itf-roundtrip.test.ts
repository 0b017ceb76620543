/**
 * ITF import and export keep what a file carries beyond the states: `params` (the constants, set in
 * the first state), the file's own `#meta` (varTypes, description, status, …) and Apalache's
 * `name_OF_TYPE` typing (taken off on import, written back on export; a name of two types kept as
 * written). Export → import → export gives the same document (modulo key order), on files written
 * from each tool's published shape (test/trace/fixtures/itf-roundtrip/README.md).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toItfValue } from '../../src/core/itf-value.js';
import { toItf } from '../../src/trace/export-itf.js';
import { importTrace } from '../../src/trace/import.js';

const DIR = join(import.meta.dirname, 'fixtures/itf-roundtrip');
const FILES = ['apalache-typed.itf.json', 'quint-run.itf.json', 'itf-rs-lasso.itf.json'];
const read = (name: string) => JSON.parse(readFileSync(join(DIR, name), 'utf8')) as Record<string, unknown> & { states: Record<string, unknown>[]; params?: string[]; vars: string[] };

/** JSON with every object's keys sorted: equal documents modulo key order give equal text. */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) => (typeof x === 'object' && x !== null && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x));
/** A value as ITF (plain JSON integers as #bigint), for comparing with what the file wrote. */
const itf = (v: unknown) => {
  const r = toItfValue(v);
  if ('problem' in r) throw new Error(r.problem);
  return r.value;
};

describe('ITF round trip', () => {
  it.each(FILES)('%s: export → import → export gives the same document', async (name) => {
    const first = toItf(await importTrace(read(name), { file: name }));
    const second = toItf(await importTrace(JSON.parse(JSON.stringify(first)), { file: name }));
    expect(canonical(second)).toBe(canonical(first));
  });

  it.each(FILES)('%s: the export holds every variable, param and #meta entry the file has, as written', async (name) => {
    const file = read(name);
    const out = toItf(await importTrace(file, { file: name }));
    for (const [k, s] of file.states.entries()) for (const v of file.vars) expect(canonical(out.states[k]![v]), `states[${k}].${v}`).toBe(canonical(itf(s[v])));
    expect(out.params ?? []).toEqual(file.params ?? []);
    for (const p of file.params ?? []) expect(canonical(out.states[0]![p])).toBe(canonical(itf(file.states[0]![p])));
    const meta = file['#meta'] as Record<string, unknown>;
    for (const k of Object.keys(meta).filter((x) => x !== 'format-description' && x !== 'source')) expect(out['#meta'][k], `#meta.${k}`).toEqual(meta[k]);
    expect(out.loop).toBe(file.loop);
  });

  it('typed model values: stripped for the trace, written back by the export; one name of two types is kept as written', async () => {
    const t = await importTrace(read('apalache-typed.itf.json'));
    expect(t.steps[1]!.state.holder).toBe('p2');
    expect(t.steps[1]!.params).toEqual({ q: 'p2' });
    expect(t.itf?.types).toEqual({ p1: 'PROC', p2: 'PROC' });
    expect(t.steps[0]!.state.kinds).toEqual({ '#set': ['a_OF_NODE', 'a_OF_PROC'] });
    expect(t.itf?.params).toEqual({ Procs: { '#set': ['p1', 'p2'] }, MaxRound: { '#bigint': '3' } });
    expect(t.imported!.notes.join('\n')).toMatch(/model values kept with their type suffix .*: a$/m);
    const out = toItf(t);
    expect(out.states[1]!['#meta']).toEqual({ index: 1, action: 'Pass', params: { q: 'p2_OF_PROC' } });
    expect(out.states[0]!.Procs).toEqual({ '#set': ['p1_OF_PROC', 'p2_OF_PROC'] });
  });
});
