/**
 * Every system's toTla is the inverse of its fromTlc: for each state its twin reaches, the TLA+ values
 * read back give the same canonical key — also through ITF (what a trace stores) and through the
 * lossy JSON of TLC's -dumpTrace json (functions as objects, sets as arrays). And the per-variable
 * values are exactly what TLC prints for the same state (the committed base dumps).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { itfToTla, toItfValue, type ItfValue } from '../../src/core/itf-value.js';
import { projectRoot } from '../../src/core/project-root.js';
import { formatTlaValue, parseTlaState, type TlaValue } from '../../src/core/tla-value.js';
import { MODEL_NAMES, SYSTEMS } from '../../src/registry/systems.js';
import { exploreSystem } from '../../src/seam/explore.js';
import { stateFromItf, stateToItf } from '../../src/seam/trace.js';

/** An ITF value as TLC's -dumpTrace json writes it: integers plain, sets and sequences arrays, functions objects keyed by their (atom) arguments. */
function asTlcJson(v: ItfValue): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return v.map(asTlcJson);
  const o = v as Record<string, unknown>;
  if ('#bigint' in o) return Number(o['#bigint']);
  if ('#set' in o) return (o['#set'] as ItfValue[]).map(asTlcJson);
  if ('#tup' in o) return (o['#tup'] as ItfValue[]).map(asTlcJson);
  if ('#map' in o) return Object.fromEntries((o['#map'] as [ItfValue, ItfValue][]).map(([k, x]) => [String(k), asTlcJson(x)]));
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, asTlcJson(x as ItfValue)]));
}

describe.each(MODEL_NAMES)('%s: toTla inverts fromTlc', (name) => {
  it('gives the same key for every reachable state, directly, through ITF and through TLC JSON', async () => {
    const sys = await SYSTEMS[name]!();
    const x = exploreSystem(sys, { invariants: [] });
    expect(x.distinct).toBeGreaterThan(100);
    for (const s of x.states) {
      const k = sys.key(s);
      const tla = sys.toTla(s);
      expect(Object.keys(tla).sort()).toEqual([...sys.variables].sort());
      expect(sys.key(sys.fromTlc(tla))).toBe(k);
      const itf = stateToItf(sys, s);
      expect(sys.key(stateFromItf(sys, JSON.parse(JSON.stringify(itf)) as Record<string, ItfValue>))).toBe(k);
      // What `trace import` makes of TLC's JSON: each value read as ITF (toItfValue), then as TLA+.
      const viaJson = Object.fromEntries(Object.entries(itf).map(([v, val]) => [v, itfToTla((toItfValue(asTlcJson(val)) as { value: ItfValue }).value)])) as Record<string, TlaValue>;
      expect(sys.key(sys.fromTlc(viaJson))).toBe(k);
    }
  });
});

/** A TLA+ value with record fields, set members and function entries in one order (TLC's and a twin's may differ). */
function normal(v: TlaValue): string {
  switch (v.kind) {
    case 'record':
      return `[${Object.keys(v.fields)
        .sort()
        .map((k) => `${k} |-> ${normal(v.fields[k]!)}`)
        .join(', ')}]`;
    case 'set':
      return `{${v.items.map(normal).sort().join(', ')}}`;
    case 'fn':
      return `(${v.entries
        .map(([k, x]) => `${normal(k)} :> ${normal(x)}`)
        .sort()
        .join(' @@ ')})`;
    case 'seq':
      return `<<${v.items.map(normal).join(', ')}>>`;
    default:
      // Keeps the kind: a model value p1 and a string "p1" print differently.
      return formatTlaValue(v);
  }
}

/** Real TLC output: a -dump of every state, or the states of an error trace. */
const TLC_STATES: readonly [string, string][] = [
  ['failover', 'test/tlc/fixtures/replication-base.dump'],
  ['fencing', 'test/tlc/fixtures/tiny.dump'],
  ['pause', 'test/tlc/fixtures/pause-P5.out'],
];

describe("toTla gives TLC's own values", () => {
  it.each(TLC_STATES)('%s: every variable of every state in %s, model values as model values', async (name, file) => {
    const base = await SYSTEMS[name]!();
    const text = readFileSync(join(projectRoot, file), 'utf8');
    const blocks = file.endsWith('.dump') ? text.split(/^State \d+:\s*$/m).slice(1) : [...text.matchAll(/^@!@!@STARTMSG 2217:4 @!@!@\n[^\n]*\n([\s\S]*?)@!@!@ENDMSG 2217 @!@!@/gm)].map((m) => m[1]!);
    expect(blocks.length).toBeGreaterThan(1);
    for (const b of blocks) {
      const vars = parseTlaState(b);
      const sys = base.withBounds && base.boundsOf ? base.withBounds(base.boundsOf(base.fromTlc(vars))) : base;
      const tla = sys.toTla(sys.fromTlc(vars));
      for (const v of sys.variables) expect(normal(tla[v]!), `${v} in\n${b}`).toBe(normal(vars[v]!));
    }
  });
});
