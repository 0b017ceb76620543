import { MODES, NONE, PHASES, type FencingState, type Lease, type Mode, type Phase, type Pod } from '../state.js';
import { TlcOutputError } from '../../../tlc/errors.js';
import { readBool, readInt, stateVariables } from '../../../tlc/read-state.js';
import { atomText, type TlaValue } from '../../../core/tla-value.js';

/** The spec's variables, in src/systems/fencing/state.ts's field names. */
export const FENCING_VARIABLES = [
  'version', 'target', 'oldLease', 'newLease', 'oldGen', 'newGen', 'backfilled', 'mode', 'lastIssued', 'monoOk',
] as const;

/** A TLC state of RedisClusterFencingMigration (variable → value) as a FencingState. */
export function toFencingState(vars: Readonly<Record<string, TlaValue>>): FencingState {
  const get = stateVariables(vars, FENCING_VARIABLES, 'fencing');
  const version = get('version');
  if (version.kind !== 'fn') throw new TlcOutputError(`version is not a function: ${version.kind}`);
  const versionMap: Record<Pod, Phase> = {};
  for (const [k, v] of version.entries) versionMap[pod(atomText(k))] = phase(v, 'version');
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
  if (v.kind !== 'record' || !v.fields['owner'] || !v.fields['gen']) {
    throw new TlcOutputError(`${what}: expected [owner |-> .., gen |-> ..], got ${JSON.stringify(v)}`);
  }
  const owner = atomText(v.fields['owner']);
  return { owner: owner === NONE ? NONE : pod(owner), gen: readInt(v.fields['gen'], `${what}.gen`) };
}
