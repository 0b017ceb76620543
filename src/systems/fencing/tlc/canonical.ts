import { MODES, NONE, PHASES, type FencingState, type Lease, type Mode, type Phase, type Pod } from '../state.js';
import { TlcOutputError } from '../../../tlc/errors.js';

/**
 * The inverse of canonicalKey() (src/systems/fencing/state.ts): a line of evidence/tlc/fencing/base.states.txt back
 * into a FencingState, so the TypeScript invariants can be evaluated on every state TLC reached.
 */
export function parseCanonicalKey(line: string): FencingState {
  const fields = new Map(line.split(';').map((kv) => {
    const i = kv.indexOf('=');
    return [kv.slice(0, i), kv.slice(i + 1)] as const;
  }));
  const get = (k: string): string => {
    const v = fields.get(k);
    if (v === undefined) throw new TlcOutputError(`canonical state lacks ${k}: ${line.slice(0, 80)}`);
    return v;
  };
  const oneOf = <T extends string>(v: string, allowed: readonly T[], k: string): T => {
    if (!(allowed as readonly string[]).includes(v)) throw new TlcOutputError(`canonical state: ${k}=${v}`);
    return v as T;
  };
  const int = (k: string): number => {
    const v = get(k);
    if (!/^\d+$/.test(v)) throw new TlcOutputError(`canonical state: ${k}=${v}`);
    return Number(v);
  };
  const lease = (k: string): Lease => {
    const [owner = '', gen = ''] = get(k).split('/');
    if (owner !== NONE && !/^p\d+$/.test(owner)) throw new TlcOutputError(`canonical state: ${k} owner ${owner}`);
    return { owner: owner as Pod | typeof NONE, gen: Number(gen) };
  };
  const version: Record<Pod, Phase> = {};
  for (const pv of get('version').split(',')) {
    const [p = '', v = ''] = pv.split(':');
    version[p as Pod] = oneOf(v, PHASES, `version[${p}]`);
  }
  return {
    version,
    target: oneOf(get('target'), PHASES, 'target'),
    oldLease: lease('oldLease'),
    newLease: lease('newLease'),
    oldGen: int('oldGen'),
    newGen: int('newGen'),
    backfilled: get('backfilled') === 'T',
    mode: oneOf<Mode>(get('mode'), MODES, 'mode'),
    lastIssued: int('lastIssued'),
    monoOk: get('monoOk') === 'T',
  };
}
