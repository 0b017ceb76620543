// The model-based limiter property on real Valkey (small run counts; `fencecheck limiter` runs ≥ 1,000).
import { expect, it } from 'vitest';
import { faultsUnavailable, replayHint, runLimiterProperty } from '../../properties/limiter/property.js';
import { describeOnTopologies } from './on-topologies.js';

describeOnTopologies('limiter property', (topology) => {
  it('every decision and every hash equals the model', async () => {
    const r = await runLimiterProperty({ topology: topology(), numRuns: 60 });
    expect(r.passed, `${r.violated}: ${r.message} (replay ${replayHint(r)})`).toBe(true);
    expect(r.stats.cases).toBe(60);
    expect(r.faults).toBe(faultsUnavailable(topology()) === null);
    const decided = r.stats.calls['allow-both'] + r.stats.calls['deny-first'] + r.stats.calls['deny-second'];
    expect(decided).toBeGreaterThan(0);
  });
});
