import type { Layer } from '../../core/manifest.js';
import type { LayerRunner } from '../../seam/layer-runner.js';

/** Each layer's mutant runner, loaded lazily (a layer's dependencies cost nothing for the others). */
export const layerRunners: Readonly<Record<Layer, () => Promise<{ runner: LayerRunner }>>> = {
  tla: () => import('./tla.js'),
  model: () => import('./model.js'),
  impl: () => import('./impl.js'),
};
