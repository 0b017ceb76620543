import type { CensusCommand } from '../signals/census.js';

/** The fencing package's long commands for the signal census (bench/signals/census.ts). */
export const commands: readonly CensusCommand[] = [
  { name: 'failover', argv: () => ['failover'] },
  // Servers, a Prometheus and pod processes, all started and stopped as the rollout goes.
  { name: 'rollout', argv: () => ['rollout', '--seed', '3'] },
];
