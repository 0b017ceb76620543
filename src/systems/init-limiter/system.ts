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
import { twinSystem } from '../../seam/twin.js';
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
} from './model-state.js';

export const INIT_LIMITER_SPEC = 'tla/init-limiter/InitLimiter.tla';
export const INIT_LIMITER_CONFIG = 'tla/init-limiter/InitLimiter.cfg';

export type InitLimiterSystem = ModelSystem<InitLimiterModelState, InitLimiterModelEvent>;

/** The init-limiter system at these constants (default: the base config), optionally with a model patch's overrides named `label`. */
export function initLimiterSystem(bounds: InitLimiterBounds = INIT_LIMITER_BASE_BOUNDS, overrides?: InitLimiterOverrides, label?: string): InitLimiterSystem {
  const invariants = initLimiterInvariants(bounds);
  return twinSystem(
    {
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
    },
    overrides,
    label,
  );
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
