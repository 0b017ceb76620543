/**
 * The cluster matrix's presence row on a real 3-shard cluster: the per-slot split MGET keeps request order and nils
 * in place, also while slots migrate live; a reassembly in slot order or one that drops nils is red.
 */
import { expect, it } from 'vitest';
import { presenceRow } from '../../../src/systems/fencing/cluster-matrix/rows/presence.js';
import { rowStatus } from '../../../src/systems/fencing/cluster-matrix/types.js';
import { clusterForRows } from './support.js';

const fixture = clusterForRows();

it('request order with nils in place, steady and during a live reshard (ASK met)', async () => {
  const r = await presenceRow.run(fixture.ctx(), 'request');
  expect(r.errors, JSON.stringify(r.figures)).toEqual({ status: 'passed' });
  expect(r.silentlyWrong, JSON.stringify(r.figures)).toEqual({ status: 'passed' });
  expect(r.figures['reads during reshard']).toBeGreaterThan(0);
});

it.each(['by-slot', 'compact'] as const)('broken: reassembly %s → silently wrong (red)', async (v) => {
  await fixture.topology().flush();
  const r = await presenceRow.run(fixture.ctx(), v);
  expect(r.errors).toEqual({ status: 'passed' });
  expect(rowStatus(r)).toBe('failed');
});
