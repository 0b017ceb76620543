import { MODES, NONE, PHASES, comparePods, type FencingState, type Lease, type Mode, type Phase, type Pod } from '../state.js';
import { TlcOutputError } from '../../../tlc/errors.js';
import { readBool, readFn, readInt, stateVariables } from '../../../tlc/read-state.js';
import { atomText, type TlaValue } from '../../../core/tla-value.js';

/** The spec's variables, in src/systems/fencing/state.ts's field names. */
export const FENCING_VARIABLES = ['version', 'target', 'oldLease', 'newLease', 'oldGen', 'newGen', 'backfilled', 'mode', 'lastIssued', 'monoOk'] as const;

const mv = (name: string): TlaValue => ({ kind: 'mv', name });
const int = (value: number): TlaValue => ({ kind: 'int', value });
const str = (value: string): TlaValue => ({ kind: 'str', value });
const bool = (value: boolean): TlaValue => ({ kind: 'bool', value });
const leaseTla = (l: Lease): TlaValue => ({ kind: 'record', fields: { owner: mv(l.owner), gen: int(l.gen) } });

/** A FencingState as the spec's variables (the inverse of toFencingState): pods and None model values, phases and modes strings. */
export function fencingStateToTla(s: FencingState): Record<(typeof FENCING_VARIABLES)[number], TlaValue> {
  const pods = (Object.keys(s.version) as Pod[]).sort(comparePods);
  return {
    version: { kind: 'fn', entries: pods.map((p) => [mv(p), str(s.version[p]!)] as const) },
    target: str(s.target),
    oldLease: leaseTla(s.oldLease),
    newLease: leaseTla(s.newLease),
    oldGen: int(s.oldGen),
    newGen: int(s.newGen),
    backfilled: bool(s.backfilled),
    mode: str(s.mode),
    lastIssued: int(s.lastIssued),
    monoOk: bool(s.monoOk),
  };
}

/** A TLC state of RedisClusterFencingMigration (variable → value) as a FencingState. */
export function toFencingState(vars: Readonly<Record<string, TlaValue>>): FencingState {
  const get = stateVariables(vars, FENCING_VARIABLES, 'fencing');
  const versionMap: Record<Pod, Phase> = {};
  for (const [k, v] of readFn(get('version'), 'version')) versionMap[pod(atomText(k))] = phase(v, 'version');
  return {
    version: versionMap,
    target: phase(get('target'), 'target'),
    oldLease: lease(get('oldLease'), 'oldLease'),
    newLease: lease(get('newLease'), 'newLease'),
    oldGen: readInt(get('oldGen'), 'oldGen'),
    newGen: readInt(get('newGen'), 'newGen'),
    backfilled: readBool(get('backfilled'), 'backfilled'),
    mode: mode(get('mode')),
    lastIssued: readInt(get('lastIssued'), 'lastIssued'),
    monoOk: readBool(get('monoOk'), 'monoOk'),
  };
}

function pod(name: string): Pod {
  if (!/^p\d+$/.test(name)) throw new TlcOutputError(`"${name}" is not a pod model value (p1, p2, ...)`);
  return name as Pod;
}

function phase(v: TlaValue, what: string): Phase {
  if (v.kind === 'str' && (PHASES as readonly string[]).includes(v.value)) return v.value as Phase;
  throw new TlcOutputError(`${what}: expected one of "O","A","B","C", got ${JSON.stringify(v)}`);
}

function mode(v: TlaValue): Mode {
  if (v.kind === 'str' && (MODES as readonly string[]).includes(v.value)) return v.value as Mode;
  throw new TlcOutputError(`mode: expected disabled/compatible/enabled, got ${JSON.stringify(v)}`);
}

function lease(v: TlaValue, what: string): Lease {
  if (v.kind !== 'record' || !v.fields.owner || !v.fields.gen) {
    throw new TlcOutputError(`${what}: expected [owner |-> .., gen |-> ..], got ${JSON.stringify(v)}`);
  }
  const owner = atomText(v.fields.owner);
  return { owner: owner === NONE ? NONE : pod(owner), gen: readInt(v.fields.gen, `${what}.gen`) };
}
