/**
 * The systems on the seam, by name. Each loads lazily (its machine and rules cost nothing to the
 * others). Fencing is on it too (src/systems/fencing/system.ts: the same figures as its fast path), while its
 * own commands (explore, parity, conform, tlc) keep the fast walk and its edge-level evidence.
 */
import type { ModelSystem } from '../seam/system.js';

export type AnySystem = ModelSystem<unknown, unknown>;

export const SYSTEMS: Readonly<Record<string, () => Promise<AnySystem>>> = {
  fencing: async () => (await import('../systems/fencing/system.js')).fencingSystem() as unknown as AnySystem,
  pause: async () => (await import('../systems/pause/system.js')).pauseSystem() as unknown as AnySystem,
  failover: async () => (await import('../systems/fencing/failover/system.js')).failoverSystem() as unknown as AnySystem,
};

export const SYSTEM_NAMES = Object.keys(SYSTEMS);

/** The systems whose TLC runs and evidence go through the seam (fencing keeps its own, src/systems/fencing/tlc/check.ts). */
export const SEAM_TLC_SYSTEMS = SYSTEM_NAMES.filter((n) => n !== 'fencing');
