import { interrupt, run, type StabilityItem } from '../stability/items.js';

/** The pause snapshot's items of the stability benchmark: its walks on both topologies, and stopping them. */
export const items: readonly StabilityItem[] = [
  run('pause standalone', ['pause']),
  run('pause cluster', ['pause', '--topology', 'cluster']),
  interrupt('stop pause', () => ['pause', '--topology', 'cluster']),
];
