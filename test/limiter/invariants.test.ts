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

// `limiter --patch` runs these checks against the patch, not the shipped script: L1 (the second
// bucket runs even when the first denies) must fail the check that the second stays untouched.
describeOnTopologies('limiter invariants against a patch', (topology) => {
  it('L1 fails first_denial_second_untouched; the shipped script passes it', async () => {
    const { default: l1 } = await import('../../mutants/limiter/impl/L1.js');
    const [patched] = await runInvariants(topology(), ['first_denial_second_untouched'], l1);
    expect(patched?.status, patched?.detail).toBe('failed');
    const [shipped] = await runInvariants(topology(), ['first_denial_second_untouched']);
    expect(shipped?.status, shipped?.detail).toBe('passed');
  });
});
