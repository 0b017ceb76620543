/**
 * Values in the Informal Trace Format (ITF, https://apalache-mc.org/docs/adr/015adr-trace.html), the
 * JSON encoding of TLA+ values Apalache and Quint write: booleans and strings as JSON, integers as
 * `{"#bigint": "-12"}`, sequences as JSON arrays, tuples `{"#tup": […]}`, sets `{"#set": […]}`,
 * functions `{"#map": [[k, v], …]}`, records as objects, anything else `{"#unserializable": "text"}`.
 * `system: "tla"` traces keep their states in this form, so import and export need no other one.
 */
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

/** The value in TLA+ syntax (what `trace show` prints for a `system: "tla"` trace). */
export function formatItf(v: ItfValue): string {
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `<<${v.map(formatItf).join(', ')}>>`;
  const o = v as Record<string, unknown>;
  if ('#bigint' in o) return o['#bigint'] as string;
  if ('#unserializable' in o) return o['#unserializable'] as string;
  if ('#tup' in o) return `<<${(o['#tup'] as ItfValue[]).map(formatItf).join(', ')}>>`;
  if ('#set' in o) return `{${(o['#set'] as ItfValue[]).map(formatItf).join(', ')}}`;
  if ('#map' in o) {
    const pairs = o['#map'] as [ItfValue, ItfValue][];
    return pairs.length === 0 ? '<<>>' : `(${pairs.map(([k, x]) => `${formatItf(k)} :> ${formatItf(x)}`).join(' @@ ')})`;
  }
  return `[${Object.entries(o).map(([k, x]) => `${k} |-> ${formatItf(x as ItfValue)}`).join(', ')}]`;
}

/** A plain integer of an ITF value, when it is one that fits. */
export function itfInt(v: ItfValue): number | undefined {
  if (typeof v === 'object' && v !== null && !Array.isArray(v) && '#bigint' in v) {
    const n = Number((v as { '#bigint': string })['#bigint']);
    return Number.isSafeInteger(n) ? n : undefined;
  }
  return undefined;
}
