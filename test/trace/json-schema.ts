/**
 * A validator for the subset of JSON Schema (2020-12) that docs/schema/fencecheck.trace-2.schema.json
 * uses: $ref to #/$defs, oneOf, anyOf, type (one or a list), const, enum, properties, required,
 * additionalProperties (false or a schema), patternProperties, items, minItems, maxItems, minLength,
 * pattern, minimum. Any other keyword throws, so the schema cannot silently outgrow the checker.
 */
type Schema = Readonly<Record<string, unknown>>;

const KNOWN = new Set([
  '$schema',
  '$id',
  'title',
  'description',
  '$defs',
  '$ref',
  'oneOf',
  'anyOf',
  'type',
  'const',
  'enum',
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  'items',
  'minItems',
  'maxItems',
  'minLength',
  'pattern',
  'minimum',
]);

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first problem found (`path: why`), or null when `value` is valid. */
export function validateAgainst(root: Schema, value: unknown): string | null {
  const resolve = (ref: string): Schema => {
    const m = /^#\/\$defs\/(.+)$/.exec(ref);
    const defs = root.$defs as Record<string, Schema> | undefined;
    const s = m ? defs?.[m[1]!] : undefined;
    if (!s) throw new Error(`unresolvable $ref ${ref}`);
    return s;
  };
  const check = (s: Schema, v: unknown, path: string): string | null => {
    for (const k of Object.keys(s)) if (!KNOWN.has(k)) throw new Error(`schema keyword ${k} at ${path} is outside the validator's subset`);
    if (typeof s.$ref === 'string') {
      const r = check(resolve(s.$ref), v, path);
      if (r) return r;
    }
    if (Array.isArray(s.oneOf)) {
      const ok = (s.oneOf as Schema[]).map((x) => check(x, v, path));
      const n = ok.filter((x) => x === null).length;
      if (n !== 1) return n === 0 ? `${path}: matches none of oneOf (${ok.join(' | ')})` : `${path}: matches ${n} of oneOf`;
    }
    if (Array.isArray(s.anyOf) && !(s.anyOf as Schema[]).some((x) => check(x, v, path) === null)) return `${path}: matches none of anyOf`;
    if (s.type !== undefined) {
      const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
      const t = typeOf(v);
      if (!types.includes(t) && !(t === 'integer' && types.includes('number'))) return `${path}: is ${t}, expected ${types.join('|')}`;
    }
    if ('const' in s && JSON.stringify(s.const) !== JSON.stringify(v)) return `${path}: must be ${JSON.stringify(s.const)}`;
    if (Array.isArray(s.enum) && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(v))) return `${path}: ${JSON.stringify(v)} is not one of ${JSON.stringify(s.enum)}`;
    if (typeof v === 'string') {
      if (typeof s.minLength === 'number' && v.length < s.minLength) return `${path}: shorter than ${s.minLength}`;
      if (typeof s.pattern === 'string' && !new RegExp(s.pattern, 'u').test(v)) return `${path}: does not match ${s.pattern}`;
    }
    if (typeof v === 'number' && typeof s.minimum === 'number' && v < s.minimum) return `${path}: below ${s.minimum}`;
    if (Array.isArray(v)) {
      if (typeof s.minItems === 'number' && v.length < s.minItems) return `${path}: fewer than ${s.minItems} items`;
      if (typeof s.maxItems === 'number' && v.length > s.maxItems) return `${path}: more than ${s.maxItems} items`;
      if (isObj(s.items))
        for (const [i, x] of v.entries()) {
          const r = check(s.items, x, `${path}[${i}]`);
          if (r) return r;
        }
    }
    if (isObj(v)) {
      for (const k of (s.required as string[] | undefined) ?? []) if (!(k in v)) return `${path}: lacks ${k}`;
      const props = (s.properties as Record<string, Schema> | undefined) ?? {};
      const patterns = Object.entries((s.patternProperties as Record<string, Schema> | undefined) ?? {}).map(([p, x]) => [new RegExp(p, 'u'), x] as const);
      for (const [k, x] of Object.entries(v)) {
        let matched = false;
        if (props[k]) {
          matched = true;
          const r = check(props[k]!, x, `${path}.${k}`);
          if (r) return r;
        }
        for (const [re, ps] of patterns)
          if (re.test(k)) {
            matched = true;
            const r = check(ps, x, `${path}.${k}`);
            if (r) return r;
          }
        if (!matched && s.additionalProperties !== undefined) {
          if (s.additionalProperties === false) return `${path}: unexpected property ${k}`;
          if (isObj(s.additionalProperties)) {
            const r = check(s.additionalProperties, x, `${path}.${k}`);
            if (r) return r;
          }
        }
      }
    }
    return null;
  };
  return check(root, value, '$');
}
