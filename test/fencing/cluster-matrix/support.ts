// One 3-shard cluster per G2 test file, started before its tests and stopped after them.
import { afterAll, beforeAll } from 'vitest';
import { startTopology, type Topology } from '../../../src/valkey/index.js';
import type { RowContext } from '../../../src/systems/fencing/cluster-matrix/types.js';

export interface RowFixture {
  readonly topology: () => Topology;
  readonly ctx: () => RowContext;
}

export function clusterForRows(): RowFixture {
  let topology: Topology | undefined;
  let ctx: RowContext | undefined;
  beforeAll(async () => {
    topology = await startTopology({ kind: 'cluster', shards: 3 }, { provider: 'native' });
    ctx = { topology, repeat: 1, log: () => {} };
  });
  afterAll(async () => {
    await topology?.stop();
  });
  return { topology: () => topology!, ctx: () => ctx! };
}
