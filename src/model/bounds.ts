import { UsageError } from '../cli/args.js';
import { DEFAULT_BOUNDS, podsOf, type FencingBounds } from '../fencing/state.js';

/** `--pods N --max-gen G` as FencingBounds (defaults: the base config, 3 pods, MaxGen 4). */
export function boundsFromArgs(values: { pods?: string; 'max-gen'?: string }): FencingBounds {
  const int = (raw: string | undefined, flag: string, min: number, max: number, dflt: number): number => {
    if (raw === undefined) return dflt;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`${flag} takes an integer from ${min} to ${max}, got '${raw}'`);
    return n;
  };
  return {
    pods: podsOf(int(values.pods, '--pods', 1, 9, DEFAULT_BOUNDS.pods.length)),
    maxGen: int(values['max-gen'], '--max-gen', 0, 12, DEFAULT_BOUNDS.maxGen),
  };
}

export function boundsLabel(b: FencingBounds): string {
  return `Pods=${b.pods.length} MaxGen=${b.maxGen}`;
}
