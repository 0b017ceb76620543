/**
 * The init-concurrency limiter package (src/seam/package.ts): the limiter of initialization
 * deliveries on a relay's polling and streaming endpoints, shared by both surfaces.
 */
import type { AnySystem, SystemPackage } from '../../seam/package.js';

export const initLimiterPackage: SystemPackage = {
  name: 'init-limiter',
  systems: [
    {
      name: 'init-limiter',
      title: 'the init-concurrency limiter: one slot budget for full polls and stream bases, held across the send, released once',
      model: async () => (await import('./system.js')).initLimiterSystem() as unknown as AnySystem,
      expectedNames: async () => Object.keys((await import('./system.js')).initLimiterSystem().invariants),
      tour: async () => (await import('./tour/entry.js')).initLimiterTour,
      replay: async () => (await import('./replay.js')).initLimiterReplayer,
    },
  ],
  impl: async () => (await import('./impl-layer.js')).initLimiterImplRunner,
};
