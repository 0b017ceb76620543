/**
 * A trace of any system as an ITF file (https://apalache-mc.org/docs/adr/015adr-trace.html): its
 * `vars` and states as they are (a trace already holds ITF values). ITF has no standard place for the
 * action taken, so each state's `#meta` carries `index`, `action` and `params` (as Apalache's `#meta`
 * extensions do); the lasso's closing action and what only fencecheck knows (system, source, bounds,
 * mutant, violated, the invariants broken at the end) go into the trace's `#meta.fencecheck`, which
 * `trace import` reads back. ITF `params` are the constants (an imported file's, else the trace's
 * bounds), set in the first state; an imported file's own `#meta` and the type suffixes its model
 * values lost on import (`p1_OF_POD`) are written back, so export → import → export is lossless.
 */
import { toItfValue, type ItfValue } from '../core/itf-value.js';
import type { Trace } from '../core/trace-format.js';

/** A system's bounds (its constants, `{MaxGen: 6}`) as ITF params, when each value is one ITF can hold. */
function boundsAsParams(bounds: unknown): Record<string, ItfValue> | undefined {
  if (typeof bounds !== 'object' || bounds === null || Array.isArray(bounds)) return undefined;
  const out: Record<string, ItfValue> = {};
  for (const [k, v] of Object.entries(bounds)) {
    const r = toItfValue(v);
    if ('problem' in r) return undefined;
    out[k] = r.value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

export const ITF_FORMAT_DESCRIPTION = 'https://apalache-mc.org/docs/adr/015adr-trace.html';

export interface ItfTrace {
  readonly '#meta': Readonly<Record<string, unknown>>;
  readonly params?: readonly string[];
  readonly vars: readonly string[];
  readonly states: readonly Readonly<Record<string, unknown>>[];
  readonly loop?: number;
}

export function toItf(trace: Trace): ItfTrace {
  const types = trace.itf?.types ?? {};
  // Model values the import took the type suffix off get it back (p1 → p1_OF_POD).
  const typed = (v: ItfValue): ItfValue => {
    if (typeof v === 'string') return Object.hasOwn(types, v) ? `${v}_OF_${types[v]}` : v;
    if (typeof v !== 'object' || v === null) return v;
    if (Array.isArray(v)) return v.map(typed);
    const o = v as Record<string, unknown>;
    if ('#bigint' in o || '#unserializable' in o) return v;
    if ('#tup' in o) return { '#tup': (o['#tup'] as ItfValue[]).map(typed) };
    if ('#set' in o) return { '#set': (o['#set'] as ItfValue[]).map(typed) };
    if ('#map' in o) return { '#map': (o['#map'] as [ItfValue, ItfValue][]).map(([k, x]) => [typed(k), typed(x)] as const) };
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, typed(x as ItfValue)]));
  };
  const record = (r: Readonly<Record<string, ItfValue>>) => Object.fromEntries(Object.entries(r).map(([k, x]) => [k, typed(x)]));
  const params = trace.itf?.params ?? boundsAsParams(trace.bounds);
  const states = trace.steps.map((step, index) => ({
    '#meta': { index, action: step.action, params: record(step.params) },
    // ITF sets the params (the constants) in the first state.
    ...(index === 0 && params && record(params)),
    ...record(step.state),
  }));
  const fencecheck: Record<string, unknown> = {
    system: trace.system,
    source: trace.source,
    ...(trace.bounds !== undefined && { bounds: trace.bounds }),
    ...(trace.mutant !== undefined && { mutant: trace.mutant }),
    ...(trace.violated !== undefined && { violated: trace.violated }),
    ...(trace.brokenAtEnd !== undefined && { brokenAtEnd: trace.brokenAtEnd }),
  };
  return {
    '#meta': {
      format: 'ITF',
      'format-description': ITF_FORMAT_DESCRIPTION,
      source: trace.spec ?? 'unknown',
      description: `exported by fencecheck trace export --itf from a ${trace.system} ${trace.source} trace`,
      // An imported file's own #meta (varTypes, description, status, …) goes back out as it came.
      ...trace.itf?.meta,
      ...(trace.loopAction && { loopAction: { action: trace.loopAction.action, params: record(trace.loopAction.params) } }),
      fencecheck,
    },
    ...(params && Object.keys(params).length > 0 && { params: Object.keys(params) }),
    vars: [...trace.vars],
    states,
    ...(trace.loop !== undefined && { loop: trace.loop }),
  };
}
