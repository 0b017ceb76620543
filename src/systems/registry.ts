/**
 * The systems on the seam, by name. Each loads lazily (its machine and rules cost nothing to the
 * others). Fencing is on it too (src/fencing/system.ts: the same figures as its fast path), while its
 * own commands (explore, parity, conform, tlc) keep the fast walk and its edge-level evidence.
 */
import type { ModelSystem } from './system.js';

export type AnySystem = ModelSystem<unknown, unknown>;

export const SYSTEMS: Readonly<Record<string, () => Promise<AnySystem>>> = {
  fencing: async () => (await import('../fencing/system.js')).fencingSystem() as unknown as AnySystem,
  pause: async () => (await import('../pause/system.js')).pauseSystem() as unknown as AnySystem,
  replication: async () => (await import('../replication/system.js')).replicationSystem() as unknown as AnySystem,
};

export const SYSTEM_NAMES = Object.keys(SYSTEMS);

/** The systems whose TLC runs and evidence go through the seam (fencing keeps its own, src/tlc/check.ts). */
export const SEAM_TLC_SYSTEMS = SYSTEM_NAMES.filter((n) => n !== 'fencing');
