/**
 * The init-concurrency limiter as a ModelSystem (src/systems/): the XState twin of
 * tla/init-limiter/InitLimiter.tla (models/init-limiter/), its invariants, TLC's state mapping and
 * the guards and effects a model patch may replace (I1–I12, the manifest's, replace mutation-point
 * guards: mutants/init-limiter/model/).
 */
import {
  EFFECTS,
  GUARDS,
  INIT_LIMITER_INVARIANT_NAMES,
  initLimiterEventLabel,
  initLimiterInvariants,
  initLimiterMachineFor,
  initLimiterSuccessors,
  type InitLimiterModelEvent,
  type InitLimiterOverrides,
} from '../../../models/init-limiter/index.js';
import type { ModelSystem } from '../../seam/system.js';
import { twinSystem, type TwinParts } from '../../seam/twin.js';
import { TlcOutputError } from '../../tlc/errors.js';
import { readBool, readFn, readInt, readSet, stateVariables } from '../../tlc/read-state.js';
import { atomText, type TlaValue } from '../../core/tla-value.js';
import {
  CLIENT_FIELDS,
  INIT_LIMITER_BASE_BOUNDS,
  INIT_LIMITER_VARIABLES,
  OBSERVATIONS,
  PHASES,
  READINGS,
  initialInitLimiterState,
  initLimiterKey,
  normalisedClients,
  normalisedObservations,
  type ClientId,
  type ClientRecord,
  type Deadline,
  type InitLimiterBounds,
  type InitLimiterModelState,
  type PerClient,
  type Poller,
  type Stream,
} from './model-state.js';

export const INIT_LIMITER_SPEC = 'tla/init-limiter/InitLimiter.tla';
export const INIT_LIMITER_CONFIG = 'tla/init-limiter/InitLimiter.cfg';

export type InitLimiterSystem = ModelSystem<InitLimiterModelState, InitLimiterModelEvent>;

/** The init-limiter system at these constants (default: the base config), optionally with a model patch's overrides named `label`. */
export function initLimiterSystem(bounds: InitLimiterBounds = INIT_LIMITER_BASE_BOUNDS, overrides?: InitLimiterOverrides, label?: string): InitLimiterSystem {
  return twinSystem(initLimiterParts(bounds), overrides, label);
}

function initLimiterParts(bounds: InitLimiterBounds): TwinParts<InitLimiterModelState, InitLimiterModelEvent, InitLimiterOverrides> {
  const invariants = initLimiterInvariants(bounds);
  return {
    name: 'init-limiter',
    spec: INIT_LIMITER_SPEC,
    config: INIT_LIMITER_CONFIG,
    variables: INIT_LIMITER_VARIABLES,
    bounds,
    initial: () => initialInitLimiterState(bounds),
    machine: (o) => {
      const machine = initLimiterMachineFor(bounds, o);
      return { successors: (s) => initLimiterSuccessors(machine, bounds, s), invariants: Object.fromEntries(INIT_LIMITER_INVARIANT_NAMES.map((n) => [n, invariants[n]])) };
    },
    key: initLimiterKey,
    label: initLimiterEventLabel,
    tlcLabels: true,
    fromTlc: initLimiterStateFromTlc,
    toTla: initLimiterStateToTla,
    paramNames: INIT_LIMITER_PARAM_NAMES,
    overridable: { guards: Object.keys(GUARDS), actions: Object.keys(EFFECTS) },
    withConstants: (c) => initLimiterParts(initLimiterConstants(bounds, c)),
    withBounds: (b) => initLimiterParts(initLimiterBounds(b)),
    cfgValue: (name, value) =>
      (name === 'Streams' || name === 'Polls' || name === 'FDv1') && /^\d+$/.test(value.trim()) ? `{${clientNames(name === 'Polls' ? 'p' : 's', Number(value.trim())).join(', ')}}` : value,
  };
}

const clientNames = (prefix: 's' | 'p', n: number): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);

const INT_CONSTANTS = { MaxConcurrent: ['maxConcurrent', 1, 4], MaxQueued: ['maxQueued', 0, 4], MaxVersion: ['maxVersion', 1, 4], Chunks: ['chunks', 1, 4], PollChunks: ['pollChunks', 1, 4] } as const;

/**
 * The bounds for TLC-style constants: `Streams` and `Polls` as a count (`1`) or a set (`{s1, s2}`),
 * `FDv1` as a count (the first N streams) or a set of streams, `LimiterOn` as TRUE or FALSE, the
 * others as integers; any other name, a value out of range, or an FDv1 stream that is not one of
 * the Streams, is a RangeError naming it.
 */
export function initLimiterConstants(base: InitLimiterBounds, c: Readonly<Record<string, string>>): InitLimiterBounds {
  const out: { -readonly [K in keyof InitLimiterBounds]: InitLimiterBounds[K] } = { ...base };
  for (const [name, value] of Object.entries(c)) {
    const v = value.trim();
    if (name === 'LimiterOn') {
      if (v !== 'TRUE' && v !== 'FALSE') throw new RangeError(`LimiterOn takes TRUE or FALSE, got "${value}"`);
      out.limiterOn = v === 'TRUE';
    } else if (name === 'Streams' || name === 'Polls' || name === 'FDv1') {
      const prefix = name === 'Polls' ? 'p' : 's';
      let names: string[];
      if (/^\d+$/.test(v) && Number(v) <= 3 && (Number(v) >= 1 || name !== 'Streams')) names = clientNames(prefix, Number(v));
      else if (new RegExp(`^\\{\\s*(${prefix}\\d(\\s*,\\s*${prefix}\\d)*)?\\s*\\}$`).test(v))
        names = [
          ...new Set(
            v
              .slice(1, -1)
              .split(',')
              .map((x) => x.trim())
              .filter((x) => x !== ''),
          ),
        ].sort();
      else throw new RangeError(`${name} takes a count from ${name === 'Polls' ? 0 : 1} to 3 or a set {${prefix}1, ${prefix}2, ...}, got "${value}"`);
      if (name === 'Streams') {
        if (names.length === 0) throw new RangeError('Streams takes at least one stream');
        out.streams = names as Stream[];
      } else if (name === 'Polls') out.polls = names as Poller[];
      else out.fdv1 = names as Stream[];
    } else if (name in INT_CONSTANTS) {
      const [field, lo, hi] = INT_CONSTANTS[name as keyof typeof INT_CONSTANTS];
      if (!/^\d+$/.test(v) || Number(v) < lo || Number(v) > hi) throw new RangeError(`${name} takes an integer from ${lo} to ${hi}, got "${value}"`);
      out[field] = Number(v);
    } else throw new RangeError(`init-limiter has no constant ${name} (constants: Streams, Polls, ${Object.keys(INT_CONSTANTS).join(', ')}, LimiterOn, FDv1)`);
  }
  const foreign = out.fdv1.filter((s) => !out.streams.includes(s));
  if (foreign.length > 0) throw new RangeError(`FDv1 names streams that are not among Streams (${out.streams.join(', ')}): ${foreign.join(', ')}`);
  return out;
}

/** Bounds as a trace records them (InitLimiterBounds' fields), checked; RangeError otherwise. */
export function initLimiterBounds(b: unknown): InitLimiterBounds {
  const o = (typeof b === 'object' && b !== null ? b : {}) as Record<string, unknown>;
  const names = (k: 'streams' | 'polls' | 'fdv1', prefix: string): string[] => {
    const v = o[k];
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string' && new RegExp(`^${prefix}\\d+$`).test(x)) || new Set(v).size !== v.length)
      throw new RangeError(`init-limiter bounds: ${k} must be distinct names ${prefix}1..${prefix}N, got ${JSON.stringify(v)}`);
    return v as string[];
  };
  const streams = names('streams', 's');
  if (streams.length === 0) throw new RangeError('init-limiter bounds: streams must name at least one stream');
  const polls = names('polls', 'p');
  // Traces written before the limiter-off and FDv1 constants: the limiter on, every stream FDv2.
  if (o.limiterOn !== undefined && typeof o.limiterOn !== 'boolean') throw new RangeError(`init-limiter bounds: limiterOn must be a boolean, got ${JSON.stringify(o.limiterOn)}`);
  const fdv1 = o.fdv1 === undefined ? [] : names('fdv1', 's');
  if (fdv1.some((s) => !streams.includes(s))) throw new RangeError(`init-limiter bounds: fdv1 must name streams among ${streams.join(', ')}, got ${JSON.stringify(fdv1)}`);
  const int = (k: 'maxConcurrent' | 'maxQueued' | 'maxVersion' | 'chunks' | 'pollChunks', lo: number): number => {
    if (!Number.isInteger(o[k]) || (o[k] as number) < lo) throw new RangeError(`init-limiter bounds: ${k} must be an integer ≥ ${lo}, got ${JSON.stringify(o[k])}`);
    return o[k] as number;
  };
  return {
    streams: streams as Stream[],
    polls: polls as Poller[],
    maxConcurrent: int('maxConcurrent', 1),
    maxQueued: int('maxQueued', 0),
    maxVersion: int('maxVersion', 1),
    chunks: int('chunks', 1),
    pollChunks: int('pollChunks', 1),
    limiterOn: o.limiterOn !== false,
    fdv1: fdv1 as Stream[],
  };
}

/** The spec's parameter names of each parameterised action (Next's `\E c \in Streams, b \in Versions : Connect(c, b)`, ...). */
export const INIT_LIMITER_PARAM_NAMES: Readonly<Record<string, readonly string[]>> = {
  Connect: ['c', 'b'],
  Decide: ['c'],
  Poll: ['p', 'b'],
  Admit: ['c'],
  Handoff: ['c'],
  CaptureDone: ['c'],
  Stall: ['c'],
  IdleTimeout: ['c'],
  Disconnect: ['c'],
};

const mv = (name: string): TlaValue => ({ kind: 'mv', name });
const int = (value: number): TlaValue => ({ kind: 'int', value });
const str = (value: string): TlaValue => ({ kind: 'str', value });
const clientOrder = (a: string, b: string): number => (a[0] === b[0] ? Number(a.slice(1)) - Number(b.slice(1)) : a[0] === 's' ? -1 : 1);

/** An InitLimiterModelState as the spec's variables (the inverse of initLimiterStateFromTlc): clients and None as model values, phases and readings as strings. */
export function initLimiterStateToTla(s: InitLimiterModelState): Record<(typeof INIT_LIMITER_VARIABLES)[number], TlaValue> {
  const record = (r: ClientRecord): TlaValue => ({
    kind: 'record',
    fields: {
      phase: str(r.phase),
      basis: int(r.basis),
      pv: int(r.pv),
      adm: int(r.adm),
      asked: int(r.asked),
      sent: int(r.sent),
      written: int(r.written),
      reading: str(r.reading),
      dl: r.dl === null ? mv('None') : int(r.dl),
      captured: { kind: 'bool', value: r.captured },
    },
  });
  const clients = (Object.keys(s.cl) as ClientId[]).sort(clientOrder);
  return {
    version: int(s.version),
    cl: { kind: 'fn', entries: clients.map((c) => [mv(c), record(s.cl[c]!)] as const) },
    holders: { kind: 'set', items: s.holders.map(mv) },
    inUse: int(s.inUse),
    queue: { kind: 'set', items: s.queue.map(mv) },
    observed: { kind: 'set', items: s.observed.map(str) },
  };
}

/** A TLC state of InitLimiter (variable → value) as an InitLimiterModelState. */
export function initLimiterStateFromTlc(vars: Readonly<Record<string, TlaValue>>): InitLimiterModelState {
  const get = stateVariables(vars, INIT_LIMITER_VARIABLES, 'init-limiter');
  return {
    version: readInt(get('version'), 'version'),
    cl: clientRecords(get('cl')),
    holders: normalisedClients(readSet(get('holders'), 'holders').map((v) => client(v, 'holders'))),
    inUse: readInt(get('inUse'), 'inUse'),
    queue: normalisedClients(readSet(get('queue'), 'queue').map((v) => client(v, 'queue'))),
    observed: normalisedObservations(readSet(get('observed'), 'observed').map((v) => oneOf(v, OBSERVATIONS, 'observed'))),
  };
}

function clientRecords(v: TlaValue): PerClient<ClientRecord> {
  return Object.fromEntries(
    readFn(v, 'cl').map(([k, x]) => {
      const c = client(k, 'cl');
      return [c, clientRecord(x, `cl[${c}]`)];
    }),
  ) as PerClient<ClientRecord>;
}

function clientRecord(v: TlaValue, what: string): ClientRecord {
  if (v.kind !== 'record' || Object.keys(v.fields).length !== CLIENT_FIELDS.length || !CLIENT_FIELDS.every((f) => v.fields[f])) {
    throw new TlcOutputError(`${what}: expected [${CLIENT_FIELDS.map((f) => `${f} |-> ..`).join(', ')}], got ${v.kind === 'record' ? `fields ${Object.keys(v.fields).join(', ')}` : v.kind}`);
  }
  const f = (name: (typeof CLIENT_FIELDS)[number]): TlaValue => v.fields[name]!;
  const int = (name: (typeof CLIENT_FIELDS)[number]): number => readInt(f(name), `${what}.${name}`);
  return {
    phase: oneOf(f('phase'), PHASES, `${what}.phase`),
    basis: int('basis'),
    pv: int('pv'),
    adm: int('adm'),
    asked: int('asked'),
    sent: int('sent'),
    written: int('written'),
    reading: oneOf(f('reading'), READINGS, `${what}.reading`),
    dl: deadline(f('dl'), `${what}.dl`),
    captured: readBool(f('captured'), `${what}.captured`),
  };
}

function deadline(v: TlaValue, what: string): Deadline {
  // None is a model value; ITF (and TLC's JSON) write it as the string "None".
  if ((v.kind === 'mv' && v.name === 'None') || (v.kind === 'str' && v.value === 'None')) return null;
  const d = readInt(v, what);
  if (d !== -1 && d !== 0 && d !== 1) throw new TlcOutputError(`${what}: expected None, -1, 0 or 1, got ${d}`);
  return d;
}

/** A string of the spec's finite set `names`. */
function oneOf<T extends string>(v: TlaValue, names: readonly T[], what: string): T {
  if (v.kind !== 'str') throw new TlcOutputError(`${what}: expected a string, got ${v.kind}`);
  if (!(names as readonly string[]).includes(v.value)) throw new TlcOutputError(`${what}: "${v.value}" is not one of ${names.join(', ')}`);
  return v.value as T;
}

function client(v: TlaValue, what: string): ClientId {
  // A model value as TLC prints it, or as a string where a trace format has no model values (ITF).
  const name = v.kind === 'mv' || v.kind === 'str' ? atomText(v) : '';
  if (!/^[sp]\d+$/.test(name)) throw new TlcOutputError(`${what}: ${v.kind === 'mv' || v.kind === 'str' ? `"${name}"` : `a ${v.kind}`} is not a client model value (s1.., p1..)`);
  return name as ClientId;
}
