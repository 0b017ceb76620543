import { afterAll, beforeAll, describe } from 'vitest';
import { startTopology, type Topology, type TopologySpec } from '../../src/valkey/index.js';

export const LIMITER_TOPOLOGIES: readonly TopologySpec[] = [{ kind: 'standalone' }, { kind: 'cluster', shards: 3 }];

/** One describe block per topology (standalone, 3-shard cluster), each with its own started topology. */
export function describeOnTopologies(title: string, body: (topology: () => Topology, spec: TopologySpec) => void): void {
  for (const spec of LIMITER_TOPOLOGIES) {
    describe(`${title} on ${spec.kind}`, () => {
      let topology: Topology | undefined;
      beforeAll(async () => {
        topology = await startTopology(spec);
      });
      afterAll(async () => {
        await topology?.stop();
      });
      body(() => topology!, spec);
    });
  }
}
