/**
 * The cluster matrix's routing row on a real 3-shard cluster: every relay command family meets ASK (slot migrating)
 * and MOVED (slot moved), seen raw on the old owner, and the cluster client authenticated as the
 * least-privilege ACL user follows both with right results; what the user may not do is refused
 * with NOPERM naming it. A client that does not follow redirects, or a user missing EVALSHA, is red.
 */
import { expect, it } from 'vitest';
import { routingRow } from '../../../src/systems/fencing/cluster-matrix/rows/routing.js';
import { rowStatus } from '../../../src/systems/fencing/cluster-matrix/types.js';
import { clusterForRows } from './support.js';

const fixture = clusterForRows();

it('every family follows ASK and MOVED with right results as the ACL user; refusals name what is missing', async () => {
  const r = await routingRow.run(fixture.ctx(), 'follow');
  expect(r.errors, JSON.stringify(r.figures)).toEqual({ status: 'passed' });
  expect(r.silentlyWrong, JSON.stringify(r.figures)).toEqual({ status: 'passed' });
  expect(r.figures['MOVED seen raw']).toBe(r.figures.families);
  expect(r.figures['ASK redirects followed']).toBeGreaterThan(0);
  // The one-slot MGET met a half-moved slot (TRYAGAIN) and still came through once it was finished.
  expect(r.figures['TRYAGAIN answered during migrations']).toBeGreaterThan(0);
  expect(r.figures['ACL refusals clear']).toBe('3/3');
});

it('broken: a client that does not follow redirects → errors (red)', async () => {
  await fixture.topology().flush();
  const r = await routingRow.run(fixture.ctx(), 'no-follow');
  expect(rowStatus(r)).toBe('failed');
  expect((r.errors as { reason: string }).reason).toMatch(/ASK \d+|MOVED \d+/);
});

it('broken: the ACL user lacks EVALSHA → a clear NOPERM (red)', async () => {
  await fixture.topology().flush();
  const r = await routingRow.run(fixture.ctx(), 'acl-missing-evalsha');
  expect(rowStatus(r)).toBe('failed');
  expect((r.errors as { reason: string }).reason).toMatch(/NOPERM User relay has no permissions to run the 'evalsha' command/);
});
