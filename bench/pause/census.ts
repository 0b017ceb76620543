import type { CensusCommand } from '../signals/census.js';

/** The pause system's long command for the signal census (bench/signals/census.ts). */
export const commands: readonly CensusCommand[] = [{ name: 'pause', argv: () => ['pause', '--topology', 'cluster'] }];
