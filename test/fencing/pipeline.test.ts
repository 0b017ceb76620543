import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import M6 from '../../mutants/fencing/impl/M6.js';
import M7 from '../../mutants/fencing/impl/M7.js';
import { ALL_CHECKS, invariantAlone } from '../../properties/fencing/checks.js';
import { openPropsEnv, type PropsEnv } from '../../properties/fencing/env.js';
import { campaignArbitrary, isPipelineIntent, type Intent } from '../../properties/fencing/intents.js';
import { executeRun } from '../../properties/fencing/run.js';
import type { ImplPatch } from '../../src/systems/fencing/patch.js';

// The TLC counterexample shape of M6/M7 as whole pipeline intents: ship to B, a B pod takes the
// new lease (new counter ahead), [loses it], the emergency rollback chain into O, an O pod acquires.
const heldThroughRetreat: Intent[] = [
  { kind: 'rollout', to: 'B', p: 'p1' },
  { kind: 'acquire', p: 'p1' },
  { kind: 'retreat', to: 'O', p: 'p2' },
  { kind: 'acquire', p: 'p2' },
];
const lostBeforeRetreat: Intent[] = [
  { kind: 'rollout', to: 'B', p: 'p1' },
  { kind: 'acquire', p: 'p1' },
  { kind: 'release', p: 'p1' },
  { kind: 'retreat', to: 'O', p: 'p2' },
  { kind: 'acquire', p: 'p2' },
];

describe('whole pipeline intents on real Valkey', () => {
  const envs = new Map<string, PropsEnv>();
  const env = async (label: string, patch?: ImplPatch) => {
    if (!envs.has(label)) envs.set(label, await openPropsEnv('standalone', patch ? { patch } : {}));
    return envs.get(label)!.ctx;
  };
  beforeAll(async () => {
    await env('base');
  });
  afterAll(async () => {
    for (const e of envs.values()) await e.close();
  });

  it('the unmutated gate walks both shapes through every check, the rollback chain reaching O', async () => {
    for (const intents of [heldThroughRetreat, lostBeforeRetreat]) {
      const r = await executeRun({ ...(await env('base')), checks: ALL_CHECKS }, intents, 'release');
      expect(r.failure, JSON.stringify(r.failure)).toBeNull();
      const labels = r.records.map((x) => x.intent);
      // The rollout is many recorded steps (3 pods rolled twice, two advances), not one.
      expect(labels.filter((l) => l.startsWith('rollout(B,p1)#')).length).toBeGreaterThanOrEqual(8);
      const end = r.records.at(-1)!.observed;
      if (intents === lostBeforeRetreat) {
        // Lease lost: the gate lets the chain into O only after the pipeline's reverse merge.
        expect(r.records.some((x) => x.event?.type === 'ReverseMerge' && x.status === 'applied')).toBe(true);
        expect(end.target).toBe('O');
        expect(Object.values(end.version)).toEqual(['O', 'O', 'O']);
        expect(end.monoOk).toBe(true);
      } else {
        // Lease held on the new keyspace: the gate stops the chain at A (RollbackToO_NewLeaseFree).
        expect(end.target).toBe('A');
      }
    }
  });

  it('the gate without RollbackToO_NewLeaseFree (M6) breaks T1 on the held shape', async () => {
    const r = await executeRun({ ...(await env('M6', M6)), checks: invariantAlone('Inv_SingleAuthority') }, heldThroughRetreat, 'release');
    expect(r.failure?.check).toBe('Inv_SingleAuthority');
  });

  it('the gate without RollbackToO_ReverseMerged (M7) breaks T2 on the lost shape', async () => {
    const r = await executeRun({ ...(await env('M7', M7)), checks: invariantAlone('Inv_Monotonic') }, lostBeforeRetreat, 'release');
    expect(r.failure?.check).toBe('Inv_Monotonic');
  });

  it('campaigns are pipeline episodes followed by short bursts, within the command budget', () => {
    const runs = fc.sample(campaignArbitrary(['p1', 'p2', 'p3'], 60), { numRuns: 200, seed: 7 });
    for (const run of runs) {
      expect(run.length).toBeGreaterThan(0);
      expect(run.length).toBeLessThanOrEqual(60);
      expect(isPipelineIntent(run[0]!)).toBe(true);
    }
    const kinds = new Set(runs.flat().map((i) => i.kind));
    expect([...kinds].sort()).toEqual(['acquire', 'expire', 'release', 'renew', 'retreat', 'rollout']);
  });
});
