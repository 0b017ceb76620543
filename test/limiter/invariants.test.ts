// The seed's required invariant tests on a real standalone Valkey and a real 3-shard cluster.
import { expect, it } from 'vitest';
import { LIMITER_INVARIANTS, runInvariants } from '../../properties/limiter/invariants.js';
import { describeOnTopologies } from './on-topologies.js';

describeOnTopologies('limiter invariants', (topology) => {
  for (const inv of LIMITER_INVARIANTS) {
    it(inv.title, async () => {
      const [outcome] = await runInvariants(topology(), [inv.name]);
      const why = inv.notApplicable(topology());
      if (why !== null) {
        expect(outcome).toMatchObject({ status: 'not-run', detail: why });
        return;
      }
      expect(outcome?.status, outcome?.detail).toBe('passed');
    });
  }
});
