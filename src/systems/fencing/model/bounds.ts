import { intOption } from '../../../core/args.js';
import { DEFAULT_BOUNDS, podsOf, type FencingBounds } from '../state.js';

/** `--pods N --max-gen G` as FencingBounds (defaults: the base config, 3 pods, MaxGen 4). */
export function boundsFromArgs(values: { pods?: string; 'max-gen'?: string }): FencingBounds {
  return {
    pods: podsOf(intOption(values, 'pods', { min: 1, max: 9, default: DEFAULT_BOUNDS.pods.length })),
    maxGen: intOption(values, 'max-gen', { min: 0, max: 12, default: DEFAULT_BOUNDS.maxGen }),
  };
}

export function boundsLabel(b: FencingBounds): string {
  return `Pods=${b.pods.length} MaxGen=${b.maxGen}`;
}
