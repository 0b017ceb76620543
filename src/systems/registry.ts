/**
 * The systems on the seam, by name. Each loads lazily (its machine and rules cost nothing to the
 * others). Fencing joins when its layers move onto the seam (issue 11).
 */
import type { ModelSystem } from './system.js';

export type AnySystem = ModelSystem<unknown, unknown>;

export const SYSTEMS: Readonly<Record<string, () => Promise<AnySystem>>> = {
  pause: async () => (await import('../pause/system.js')).pauseSystem() as unknown as AnySystem,
  replication: async () => (await import('../replication/system.js')).replicationSystem() as unknown as AnySystem,
};

export const SYSTEM_NAMES = Object.keys(SYSTEMS);
