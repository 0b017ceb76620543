// One 3-shard cluster per cluster matrix test file (over TLS when asked), started before its tests and stopped after them.
import { afterAll, beforeAll } from 'vitest';
import { startTopology, type Topology } from '../../../src/valkey/index.js';
import type { RowContext } from '../../../src/systems/fencing/cluster-matrix/types.js';

export interface RowFixture {
  readonly topology: () => Topology;
  readonly ctx: () => RowContext;
}

export function clusterForRows(opts: { tls?: boolean } = {}): RowFixture {
  let topology: Topology | undefined;
  let ctx: RowContext | undefined;
  beforeAll(async () => {
    topology = await startTopology({ kind: 'cluster', shards: 3, ...(opts.tls && { tls: true }) }, { provider: 'native' });
    ctx = { topology, repeat: 1, log: () => {} };
  });
  afterAll(async () => {
    await topology?.stop();
  });
  return { topology: () => topology!, ctx: () => ctx! };
}
