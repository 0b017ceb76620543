/**
 * Values in the Informal Trace Format (ITF, https://apalache-mc.org/docs/adr/015adr-trace.html), the
 * JSON encoding of TLA+ values Apalache and Quint write: booleans and strings as JSON, integers as
 * `{"#bigint": "-12"}`, sequences as JSON arrays, tuples `{"#tup": […]}`, sets `{"#set": […]}`,
 * functions `{"#map": [[k, v], …]}`, records as objects, anything else `{"#unserializable": "text"}`.
 * Every trace (fencecheck.trace/2) keeps its states in this form, so import and export need no other
 * one; `tlaToItf` and `itfToTla` translate to and from the TLA+ values TLC prints (tla-value.ts).
 */
import type { TlaValue } from './tla-value.js';

export type ItfValue =
  | boolean
  | string
  | { readonly '#bigint': string }
  | { readonly '#tup': readonly ItfValue[] }
  | { readonly '#set': readonly ItfValue[] }
  | { readonly '#map': readonly (readonly [ItfValue, ItfValue])[] }
  | { readonly '#unserializable': string }
  | readonly ItfValue[]
  | { readonly [field: string]: ItfValue };

const BIGINT = /^-?\d+$/;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A JSON value read as ITF, or why not (the path names the place). JSON numbers are accepted and
 * become `#bigint` (TLC's -dumpTrace json and some tools write them plainly); fractions are not TLA+.
 */
export function toItfValue(v: unknown, path = 'value'): { value: ItfValue } | { problem: string } {
  if (typeof v === 'boolean' || typeof v === 'string') return { value: v };
  if (typeof v === 'number') return Number.isInteger(v) ? { value: { '#bigint': String(v) } } : { problem: `${path}: ${v} is not an integer` };
  const all = (xs: unknown[], at: (i: number) => string): { value: ItfValue[] } | { problem: string } => {
    const out: ItfValue[] = [];
    for (const [i, x] of xs.entries()) {
      const r = toItfValue(x, at(i));
      if ('problem' in r) return r;
      out.push(r.value);
    }
    return { value: out };
  };
  if (Array.isArray(v)) return all(v, (i) => `${path}[${i}]`);
  if (!isObject(v)) return { problem: `${path}: null is not a TLA+ value` };
  const keys = Object.keys(v);
  const tag = keys.length === 1 && keys[0]!.startsWith('#') ? keys[0]! : undefined;
  switch (tag) {
    case undefined:
      break;
    case '#bigint':
      return typeof v[tag] === 'string' && BIGINT.test(v[tag] as string) ? { value: { '#bigint': v[tag] as string } } : { problem: `${path}: #bigint must be a string of digits` };
    case '#unserializable':
      return typeof v[tag] === 'string' ? { value: { '#unserializable': v[tag] as string } } : { problem: `${path}: #unserializable must be a string` };
    case '#tup':
    case '#set': {
      const xs = v[tag];
      if (!Array.isArray(xs)) return { problem: `${path}: ${tag} must be an array` };
      const r = all(xs, (i) => `${path}.${tag}[${i}]`);
      return 'problem' in r ? r : { value: tag === '#tup' ? { '#tup': r.value } : { '#set': r.value } };
    }
    case '#map': {
      const xs = v[tag];
      if (!Array.isArray(xs)) return { problem: `${path}: #map must be an array of [key, value] pairs` };
      const pairs: [ItfValue, ItfValue][] = [];
      for (const [i, kv] of xs.entries()) {
        if (!Array.isArray(kv) || kv.length !== 2) return { problem: `${path}.#map[${i}] must be a [key, value] pair` };
        const k = toItfValue(kv[0], `${path}.#map[${i}][0]`);
        if ('problem' in k) return k;
        const x = toItfValue(kv[1], `${path}.#map[${i}][1]`);
        if ('problem' in x) return x;
        pairs.push([k.value, x.value]);
      }
      return { value: { '#map': pairs } };
    }
    default:
      return { problem: `${path}: unknown ITF tag ${tag}` };
  }
  const rec: Record<string, ItfValue> = {};
  for (const k of keys) {
    const r = toItfValue(v[k], `${path}.${k}`);
    if ('problem' in r) return r;
    rec[k] = r.value;
  }
  return { value: rec };
}

/** The value in TLA+ syntax, strings written by `str` (quoted, or identifiers bare). */
function showItf(v: ItfValue, str: (s: string) => string): string {
  const show = (x: ItfValue) => showItf(x, str);
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (typeof v === 'string') return str(v);
  if (Array.isArray(v)) return `<<${v.map(show).join(', ')}>>`;
  const o = v as Record<string, unknown>;
  if ('#bigint' in o) return o['#bigint'] as string;
  if ('#unserializable' in o) return o['#unserializable'] as string;
  if ('#tup' in o) return `<<${(o['#tup'] as ItfValue[]).map(show).join(', ')}>>`;
  if ('#set' in o) return `{${(o['#set'] as ItfValue[]).map(show).join(', ')}}`;
  if ('#map' in o) {
    const pairs = o['#map'] as [ItfValue, ItfValue][];
    return pairs.length === 0 ? '<<>>' : `(${pairs.map(([k, x]) => `${show(k)} :> ${show(x)}`).join(' @@ ')})`;
  }
  return `[${Object.entries(o)
    .map(([k, x]) => `${k} |-> ${show(x as ItfValue)}`)
    .join(', ')}]`;
}

/** The value in TLA+ syntax, every string quoted. */
export function formatItf(v: ItfValue): string {
  return showItf(v, (x) => JSON.stringify(x));
}

/** A plain integer of an ITF value, when it is one that fits. */
export function itfInt(v: ItfValue): number | undefined {
  if (typeof v === 'object' && v !== null && !Array.isArray(v) && '#bigint' in v) {
    const n = Number((v as { '#bigint': string })['#bigint']);
    return Number.isSafeInteger(n) ? n : undefined;
  }
  return undefined;
}

/** Intervals up to this many elements are written out as a set; longer ones stay `lo..hi` text. */
const MAX_ENUMERATED = 10_000;

/**
 * A TLC value as ITF. Model values become strings (as TLC's own -dumpTrace json and Apalache write
 * them); a function whose domain is 1..n is printed by TLC as a sequence and stays one; a value the
 * parser could not read is kept as `#unserializable` with TLC's text.
 */
export function tlaToItf(v: TlaValue): ItfValue {
  switch (v.kind) {
    case 'int':
      return { '#bigint': String(v.value) };
    case 'str':
      return v.value;
    case 'bool':
      return v.value;
    case 'mv':
      return v.name;
    case 'interval': {
      if (v.hi < v.lo) return { '#set': [] };
      if (v.hi - v.lo + 1 > MAX_ENUMERATED) return { '#unserializable': `${v.lo}..${v.hi}` };
      return { '#set': Array.from({ length: v.hi - v.lo + 1 }, (_, i) => ({ '#bigint': String(v.lo + i) })) };
    }
    case 'record':
      return Object.fromEntries(Object.entries(v.fields).map(([k, x]) => [k, tlaToItf(x)]));
    case 'fn':
      return { '#map': v.entries.map(([k, x]) => [tlaToItf(k), tlaToItf(x)] as const) };
    case 'set':
      return { '#set': v.items.map(tlaToItf) };
    case 'seq':
      return v.items.map(tlaToItf);
    case 'unreadable':
      return { '#unserializable': v.text };
  }
}

/**
 * An ITF value as the TLA+ value a system's `fromTlc` reads. ITF cannot tell a model value from a
 * string (both are JSON strings), so strings become `str`, which the readers' atomText accepts for
 * either; tuples become sequences; a value ITF could not serialize is `unreadable`; an integer
 * beyond JavaScript's safe range too.
 */
export function itfToTla(v: ItfValue): TlaValue {
  if (typeof v === 'boolean') return { kind: 'bool', value: v };
  if (typeof v === 'string') return { kind: 'str', value: v };
  if (Array.isArray(v)) return { kind: 'seq', items: v.map(itfToTla) };
  const o = v as Record<string, unknown>;
  if ('#bigint' in o) {
    const n = Number(o['#bigint']);
    return Number.isSafeInteger(n) ? { kind: 'int', value: n } : { kind: 'unreadable', text: String(o['#bigint']), error: 'an integer beyond 2^53' };
  }
  if ('#tup' in o) return { kind: 'seq', items: (o['#tup'] as ItfValue[]).map(itfToTla) };
  if ('#set' in o) return { kind: 'set', items: (o['#set'] as ItfValue[]).map(itfToTla) };
  if ('#map' in o) return { kind: 'fn', entries: (o['#map'] as [ItfValue, ItfValue][]).map(([k, x]) => [itfToTla(k), itfToTla(x)] as const) };
  if ('#unserializable' in o) return { kind: 'unreadable', text: String(o['#unserializable']), error: 'not serializable in ITF' };
  return { kind: 'record', fields: Object.fromEntries(Object.entries(o).map(([k, x]) => [k, itfToTla(x as ItfValue)])) };
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The value as a table cell or a log line: TLA+ syntax like formatItf, but strings that look like
 * identifiers (model values: ITF writes them as strings) unquoted.
 */
export function itfText(v: ItfValue): string {
  return showItf(v, (x) => (IDENT.test(x) ? x : JSON.stringify(x)));
}
