/**
 * The cluster matrix's pub/sub row on a real 3-shard cluster, message by message: the resubscribing client passes;
 * a subscriber that does not resubscribe after CLIENT KILL, or ignores a slot move, raises no error
 * and silently loses messages (red).
 */
import { expect, it } from 'vitest';
import { pubsubRow } from '../../../src/systems/fencing/cluster-matrix/rows/pubsub.js';
import { rowStatus } from '../../../src/systems/fencing/cluster-matrix/types.js';
import { clusterForRows } from './support.js';

const fixture = clusterForRows();

it('resubscribing subscriber: every counted message delivered once, across kill and migration; patterns hear every node', async () => {
  const r = await pubsubRow.run(fixture.ctx(), 'resubscribe');
  expect(r.errors, JSON.stringify(r.figures)).toEqual({ status: 'passed' });
  expect(r.silentlyWrong, JSON.stringify(r.figures)).toEqual({ status: 'passed' });
  expect(r.figures.shards).toBe(3);
  expect(r.figures['subscriber RESP']).toBe('3');
  expect(r.figures.lost).toBe(0);
  expect(r.figures['pattern broadcasts heard']).toBe('6/6');
});

it('broken: no resubscribe after a forced disconnect → silently wrong (red)', async () => {
  const r = await pubsubRow.run(fixture.ctx(), 'no-resubscribe');
  expect(rowStatus(r)).toBe('failed');
  expect((r.silentlyWrong as { reason: string }).reason).toMatch(/did not come back|no subscriber/);
});

it('broken: a subscriber that ignores a slot move → silently wrong (red)', async () => {
  const r = await pubsubRow.run(fixture.ctx(), 'ignore-moved');
  expect(rowStatus(r)).toBe('failed');
  expect((r.silentlyWrong as { reason: string }).reason).toMatch(/migration/);
});
